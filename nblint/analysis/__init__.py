"""The analyses rules read: a context per table that computes each analysis once, on demand, and caches it."""
