"""Pictures: speedups (results.json), sweep (a sweep's figures), timeline (two traces), common."""
