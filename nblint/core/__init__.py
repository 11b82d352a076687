"""Leaf utilities every stage may use: errors, hashing, threads, resources, terminal output, the version.

Nothing here imports another part of nblint, and nothing here imports pandas or
pyarrow at import time, so the CLI's start-up stays cheap.
"""
