"""NB4xx: the measured cost of reading one-hot and dummy groups as independent bits."""
