"""The Dask engine: a table profiled partition by partition on a cluster, and NB401's row passes there.

Only ``source`` is imported by the rest of nblint (when a Dask frame or ``--engine dask``
is given); it imports Dask itself lazily.
"""
