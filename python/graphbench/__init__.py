"""graphbench's Python side: exporting models for graphbench to run, Python's own timing of the same
steps, and the tables and pictures of the results. docs/python.md lists its modules and commands
(entry points of python/pyproject.toml, and scripts/NAME.py). Nothing here edits sys.path but
models/own_code.py, which puts the user's folder first as Python does for a script it runs.
"""
