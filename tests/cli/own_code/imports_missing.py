import no_such_module_for_graphbench


def make_model(batch=1):
    return None
