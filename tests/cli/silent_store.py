#!/usr/bin/env python3
"""Runs COMMAND with MASTER_PORT set to a port on 127.0.0.1 that accepts connections and never
answers: a rendezvous store that does not understand its client (torchrun 2.11's agent store does
this to LibTorch 1.13's requests). Exits with COMMAND's exit code, or 3 if it ran past 60 s.

silent_store.py COMMAND [ARG...]
"""
import os
import socket
import subprocess
import sys

with socket.socket() as server:
    server.bind(("127.0.0.1", 0))
    server.listen(16)  # the kernel completes the connections; nothing reads or answers them
    env = dict(os.environ, MASTER_PORT=str(server.getsockname()[1]))
    try:
        sys.exit(subprocess.run(sys.argv[1:], env=env, timeout=60).returncode)
    except subprocess.TimeoutExpired:
        print("silent_store.py: the command ran past 60 s", file=sys.stderr)
        sys.exit(3)
