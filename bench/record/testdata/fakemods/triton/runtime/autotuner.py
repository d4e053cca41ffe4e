from .jit import KernelInterface


class Config:
    def __init__(self, kwargs, num_warps=4, num_stages=3):
        self.kwargs, self.num_warps, self.num_stages = kwargs, num_warps, num_stages

    def all_kwargs(self):
        return {**self.kwargs, "num_warps": self.num_warps, "num_stages": self.num_stages}


def do_bench(fn):
    for _ in range(3):
        fn()
    return 1.0


class Autotuner(KernelInterface):
    def __init__(self, fn, configs, key):
        self.fn, self.configs = fn, configs

    def _bench(self, *args, config, **meta):
        return do_bench(lambda: self.fn.run(*args, **meta, **config.all_kwargs()))

    def run(self, *args, **kwargs):
        timings = [(self._bench(*args, config=c, **kwargs), i) for i, c in enumerate(self.configs)]
        best = self.configs[-1]  # the fake's choice: the last config
        return self.fn.run(*args, **kwargs, **best.all_kwargs())


class Heuristics(KernelInterface):
    def __init__(self, fn, values):
        self.fn, self.values = fn, values

    def run(self, *args, **kwargs):
        import inspect
        names = list(inspect.signature(self.fn.fn).parameters)
        all_args = {**dict(zip(names, args)), **kwargs}
        for k, f in self.values.items():
            kwargs[k] = f(all_args)
        return self.fn.run(*args, **kwargs)


def autotune(configs, key):
    return lambda fn: Autotuner(fn, configs, key)


def heuristics(values):
    return lambda fn: Heuristics(fn, values)
