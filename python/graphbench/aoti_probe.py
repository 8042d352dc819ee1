"""Why did AOTInductor packages of pieces crash when loaded (docs/models.md, "Pieces compiled by
Inductor")? A probe for the GPU machine: it compiles a model's pieces several ways (--kinds: fx, a
package per piece; fx-meta, the same with graphbench's metadata; one, every piece a named model of
one package; whole, the model as one package, the control), loads each package in a fresh process
(one package, and all of one kind together), runs it on the inputs it was compiled at, compares with
the piece run eagerly, and prints a crash's native stack (a fault handler preloaded, and gdb where
it is on PATH).

    python3 scripts/aoti_pieces_probe.py --out probe/ [--model conv_attention|resnet50] [--device cuda]

Results: a table on stdout and <out>/probe.json. Exit codes: 0 every package loaded and matched,
1 otherwise, 2 bad arguments.
"""

import argparse
import ctypes
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from .commands import module_command

HANDLER_C = r"""
#define _GNU_SOURCE
#include <cxxabi.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void on_fault(int sig, siginfo_t* info, void* ctx) {
  (void)ctx;
  void* frames[80];
  int n = backtrace(frames, 80);
  fprintf(stderr, "\n=== native stack (signal %d, fault address %p)\n", sig, info ? info->si_addr : 0);
  for (int i = 0; i < n; ++i) {
    Dl_info d;
    memset(&d, 0, sizeof d);
    const char* lib = "?";
    const char* sym = "";
    char* demangled = 0;
    unsigned long off = 0, sym_off = 0;
    if (dladdr(frames[i], &d)) {
      lib = d.dli_fname ? d.dli_fname : "?";
      off = (unsigned long)((char*)frames[i] - (char*)d.dli_fbase);
      if (d.dli_sname) {
        int status = 0;
        demangled = abi::__cxa_demangle(d.dli_sname, 0, 0, &status);
        sym = status == 0 && demangled ? demangled : d.dli_sname;
        sym_off = (unsigned long)((char*)frames[i] - (char*)d.dli_saddr);
      }
    }
    fprintf(stderr, "#%-2d %s+0x%lx  %s+0x%lx\n", i, lib, off, sym, sym_off);
    free(demangled);
  }
  fflush(stderr);
  signal(sig, SIG_DFL);
  raise(sig);
}

extern "C" void gb_install_fault_stack(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, 0);
  sigaction(SIGBUS, &sa, 0);
  sigaction(SIGABRT, &sa, 0);
  sigaction(SIGILL, &sa, 0);
}
"""


def build_handler(out):
    """The fault handler's library in `out`, or None where no C++ compiler is."""
    cxx = shutil.which("c++") or shutil.which("g++")
    if cxx is None:
        return None
    src, lib = out / "fault_stack.cpp", out / "libfault_stack.so"
    src.write_text(HANDLER_C)
    subprocess.run([cxx, "-shared", "-fPIC", "-O0", "-o", str(lib), str(src)], check=True)
    return lib


def build(model_name, batch, device):
    import torch

    from .models import zoo

    torch.manual_seed(0)
    if model_name == "conv_attention":
        source = Path(__file__).resolve().parents[2] / "examples" / "conv_attention.py"
        case = zoo.ModelCase(model=f"py:{source}:make_model", batch=batch, origin_dir=os.getcwd())
        zoo.check_own_code(case)
        zoo.describe_own_code(case, True, {})
        model, inputs = zoo.build_model(case, device), zoo.make_inputs(case, device)
    elif model_name == "resnet50":
        import torchvision

        model, inputs = torchvision.models.resnet50(), [torch.randn(batch, 3, 224, 224)]
    else:
        raise SystemExit(f"aoti_pieces_probe: --model {model_name}: expected conv_attention or resnet50")
    return model.eval().to(device), [t.to(device) for t in inputs]


def compile_all(args, out):
    """Writes the packages and their inputs and expected outputs; returns [(kind, name, package, model)]."""
    import torch
    import torch._inductor
    from torch._inductor.package import package_aoti

    from . import pieces as P

    model, inputs = build(args.model, args.batch, args.device)
    jobs = []
    with torch.no_grad():
        split = P.split(model, inputs, P.parse_scopes(args.scope), args.model)
        outputs = []
        one = {}
        for k, piece in enumerate(split.pieces):
            call_args = [P.resolve(r, inputs, outputs) for r in piece.inputs]
            result = piece.module(*call_args)
            outputs.append(tuple(result))
            torch.save({"inputs": [a.cpu() for a in call_args], "expected": [t.cpu() for t in result]},
                       out / f"piece{k}.io.pt")
            exported = torch.export.export(piece.module, tuple(call_args), strict=False)
            for kind, configs in (("fx", {}), ("fx-meta", {"aot_inductor.metadata": {"graphbench_inputs": json.dumps(
                    [{"shape": list(a.shape), "dtype": str(a.dtype)} for a in call_args])}})):
                if kind not in args.kinds:
                    continue
                path = out / f"{kind}-piece{k}.pt2"
                start = time.time()
                torch._inductor.aoti_compile_and_package(exported, package_path=str(path), inductor_configs=configs)
                print(f"compiled {path.name} in {time.time() - start:.1f} s", flush=True)
                jobs.append((kind, f"piece{k}", str(path), "model", f"piece{k}.io.pt"))
            if "one" in args.kinds:
                one[f"piece{k}"] = torch._inductor.aot_compile(exported.module(), tuple(call_args),
                                                               options={"aot_inductor.package": True})
        if one:
            one_path = out / "one-pieces.pt2"
            package_aoti(str(one_path), one)
            for k in range(len(split.pieces)):
                jobs.append(("one", f"piece{k}", str(one_path), f"piece{k}", f"piece{k}.io.pt"))
        if "whole" in args.kinds:
            torch.save({"inputs": [t.cpu() for t in inputs], "expected": [model(*inputs).cpu()]}, out / "whole.io.pt")
            exported = torch.export.export(model, tuple(inputs), strict=False)
            torch._inductor.aoti_compile_and_package(exported, package_path=str(out / "whole.pt2"))
            jobs.append(("whole", "whole", str(out / "whole.pt2"), "model", "whole.io.pt"))
    return jobs


def child(argv):
    """In a fresh process: loads each (package, model name, io file), then runs each: a JSON line each."""
    handler = os.environ.get("GB_FAULT_STACK")
    if handler:
        ctypes.CDLL(handler).gb_install_fault_stack()
    import torch
    from torch._inductor.package import load_package

    device = argv[0]
    triples = [argv[i:i + 3] for i in range(1, len(argv), 3)]
    loaded = []
    for package, name, io in triples:
        print(f"loading {package} model {name}", file=sys.stderr, flush=True)
        loaded.append(load_package(package, name))
        print(f"loaded {package} model {name}", file=sys.stderr, flush=True)
    for (package, name, io), runner in zip(triples, loaded):
        data = torch.load(io)
        got = runner([t.to(device) for t in data["inputs"]])
        got = got if isinstance(got, (list, tuple)) else [got]
        diff = max(float((g.cpu().float() - e.float()).abs().max()) for g, e in zip(got, data["expected"]))
        print(json.dumps({"package": package, "model": name, "max_difference": diff}), flush=True)


def run_child(args, out, handler, jobs, label):
    """Loads and runs the jobs' packages in one fresh process, the fault handler preloaded where given
    (run again under gdb where it crashes)."""
    rerun, env = module_command("aoti_pieces_probe", "--child", args.device)
    cmd = [sys.executable, *rerun]
    for _, _, package, name, io in jobs:
        cmd += [package, name, str(out / io)]
    env["GB_FAULT_STACK"] = str(handler) if handler else ""
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    log = out / f"{label}.log"
    log.write_text(proc.stdout + proc.stderr)
    entry = {"label": label, "rc": proc.returncode, "log": str(log),
             "results": [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]}
    if proc.returncode != 0 and shutil.which("gdb"):
        gdb = ["gdb", "-batch", "-ex", "set pagination off", "-ex", "run", "-ex", "bt 60",
               "-ex", "info sharedlibrary", "--args"] + cmd
        g = subprocess.run(gdb, capture_output=True, text=True, env=dict(env, GB_FAULT_STACK=""), timeout=900)
        (out / f"{label}.gdb.log").write_text(g.stdout + g.stderr)
        entry["gdb_log"] = str(out / f"{label}.gdb.log")
    return entry


def main(argv):
    if argv[:1] == ["--child"]:
        child(argv[1:])
        return 0
    p = argparse.ArgumentParser(prog="aoti_pieces_probe.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True)
    for name, default in (("--model", "conv_attention"), ("--batch", 1), ("--scope", "layer"), ("--device", "cuda")):
        p.add_argument(name, type=type(default), default=default)
    p.add_argument("--kinds", default="fx,fx-meta,one,whole",
                   help="the kinds of package to make and load, comma-separated (default all: fx,fx-meta,one,whole)")
    args = p.parse_args(argv)
    args.kinds = set(args.kinds.split(","))
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    handler = build_handler(out)
    jobs = compile_all(args, out)
    report = []
    # Each load twice, plain and with the fault handler preloaded: whether what the process loaded
    # before torch decides the crash.
    for kind in ("whole", "fx", "fx-meta", "one"):
        of_kind = [j for j in jobs if j[0] == kind]
        groups = [([j], f"{kind}-{j[1]}") for j in of_kind] + ([(of_kind, f"{kind}-all")] if len(of_kind) > 1 else [])
        for group, label in groups:
            report.append(run_child(args, out, None, group, label))
            report.append(run_child(args, out, handler, group, f"{label}-preloaded"))
    for entry in report:
        status = "ok" if entry["rc"] == 0 else f"exit {entry['rc']}"
        diffs = ", ".join(f"{r['model']} {r['max_difference']:.2e}" for r in entry["results"])
        print(f"{entry['label']:16s} {status:10s} {diffs}  ({entry['log']})")
    (out / "probe.json").write_text(json.dumps(report, indent=1) + "\n")
    return 0 if all(entry["rc"] == 0 for entry in report) else 1
