"""Python's timing peers: the same steps that graphbench times, timed by PyTorch in Python
(docs/python.md lists them); timing.py holds what they share."""
