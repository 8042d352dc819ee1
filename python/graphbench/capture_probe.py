"""What cannot be captured, learned from the model on the device: each node of a traced model run
once on CUDA under torch.cuda.set_sync_debug_mode("error"), which raises at an op that makes the host
wait for the device (nonzero, a boolean mask as an index, .item(), a user's own op that does so): a
graph cannot hold it, as the host would read a value the replay never writes.
"""

SYNC_WORDS = ("synchroniz", "synchronis")


def probe(gm, inputs):
    """{node: why} of the nodes of `gm` that synchronize, each run under sync debug mode "error" (then
    again without it, so that the run goes on); None where no input is on CUDA (the lists decide)."""
    import torch
    import torch.fx as fx

    on_cuda = any(isinstance(t, torch.Tensor) and t.is_cuda for t in inputs)
    if not on_cuda or not hasattr(torch.cuda, "set_sync_debug_mode"):
        return None
    found = {}

    class Prober(fx.Interpreter):
        def run_node(self, n):
            if n.op not in ("call_function", "call_method", "call_module"):
                return super().run_node(n)
            before = torch.cuda.get_sync_debug_mode()
            torch.cuda.synchronize()
            torch.cuda.set_sync_debug_mode("error")
            try:
                return super().run_node(n)
            except RuntimeError as e:
                text = str(e)
                if not any(w in text.lower() for w in SYNC_WORDS):
                    raise
                found[n] = first_line(text)
            finally:
                torch.cuda.set_sync_debug_mode(before)
            return super().run_node(n)

    with torch.no_grad():
        Prober(gm).run(*inputs)
    torch.cuda.synchronize()
    return found


def first_line(text):
    return next((line.strip() for line in text.splitlines() if line.strip()), text)[:160]
