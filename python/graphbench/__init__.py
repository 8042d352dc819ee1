"""graphbench's Python side: exporting models for graphbench to run, Python's own timing of the same
steps, and the tables and pictures of the results (docs/python.md).

    errors        BadInput (the one bad-input error) and the exit codes
    suites        the one writer: suites, the manifests beside model files, result files (whole)
    models/       sources of models: zoo (torchvision, timm, hf: by name), own_code (py:FILE:CALLABLE,
                  the user's own code), decoders (Hugging Face decoding steps) and state (the KV
                  cache's starting values), trace_fixes
    pieces        a model split at a capture scope's boundaries; the scope grammar
    capture_probe what cannot be captured, found on the device (CUDA's sync debug mode)
    dynamo_trace  a model torch.fx cannot trace, traced by torch.compile's tracer for pieces
    graph_breaks  where torch.compile breaks a model's graph by default, each break's source line
    aoti_probe    AOTInductor packages of pieces loaded in fresh processes (a crash's native stack)
    train_step    a whole training step traced for one AOTInductor package
    commands      the commands, each a module's main(); BadInput is exit 2
    results       the one reader of results.json
    export        export_model.py: model files and the suite that runs them; export_times
    peers/        Python's timing peers (baseline, replay, ddp, all_reduce_overlap) and their one
                  capture()
    plots/        pictures of results and traces
    tables/       tables and target checks of committed results

The commands (commands.py) are entry points of python/pyproject.toml (pip install -e python/) and
scripts/NAME.py, a few lines each (python/graphbench links to this package, and Python puts a
script's own folder first on its path). Nothing here edits sys.path (the user's own code aside:
models/own_code.py puts the user's folder first, as Python does for a script it runs).
"""
