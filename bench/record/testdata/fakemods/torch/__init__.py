"""A stand-in for the little of torch that record.py uses, for its tests on
machines without torch: float32 and int32 tensors on a fake "cuda" device,
views with strides (t(), slicing by as_strided), shared storage."""
import struct

_next_ptr = [1 << 20]


class dtype:
    def __init__(self, name, code, size):
        self.name, self.code, self.size = name, code, size

    def __repr__(self):
        return "torch." + self.name


float32 = dtype("float32", "f", 4)
int32 = dtype("int32", "i", 4)
uint8 = dtype("uint8", "B", 1)
bool = dtype("bool", "?", 1)


class _Storage:
    def __init__(self, n, dt):
        self.vals = [0] * n
        self.ptr = _next_ptr[0]
        _next_ptr[0] += max(n, 1) * dt.size + 256


class _Bytes:
    def __init__(self, data):
        self.data = data

    def cpu(self):
        return self

    def numpy(self):
        return self

    def tobytes(self):
        return self.data


class Tensor:
    def __init__(self, storage, dt, shape, stride, offset=0):
        self.storage, self.dtype = storage, dt
        self.shape, self._stride, self.offset = tuple(shape), tuple(stride), offset
        self.is_cuda, self.device = True, "cuda:0"

    def stride(self, i=None):
        return self._stride if i is None else self._stride[i]

    def dim(self):
        return len(self.shape)

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def element_size(self):
        return self.dtype.size

    def data_ptr(self):
        return self.storage.ptr + self.offset * self.dtype.size

    def is_contiguous(self):
        want = 1
        for s, st in reversed(list(zip(self.shape, self._stride))):
            if s != 1 and st != want:
                return False
            want *= s
        return True

    def detach(self):
        return self

    def _indices(self):
        idx = [self.offset]
        for s, st in zip(self.shape, self._stride):
            idx = [i + k * st for i in idx for k in range(s)]
        return idx

    def tolist_flat(self):
        return [self.storage.vals[i] for i in self._indices()]

    def set_flat(self, vals):
        for i, v in zip(self._indices(), vals):
            self.storage.vals[i] = v

    def t(self):
        return Tensor(self.storage, self.dtype, self.shape[::-1], self._stride[::-1], self.offset)

    def as_strided(self, size, stride, offset=None):
        return Tensor(self.storage, self.dtype, size, stride, self.offset if offset is None else offset)

    def contiguous(self):
        if self.is_contiguous():
            return self
        return tensor(self.tolist_flat(), self.dtype).reshape(self.shape)

    def reshape(self, *shape):
        shape = shape[0] if len(shape) == 1 and isinstance(shape[0], tuple) else shape
        shape = tuple(self.numel() if s == -1 else s for s in shape)
        c = self.contiguous()
        st, acc = [], 1
        for s in reversed(shape):
            st.insert(0, acc)
            acc *= s
        return Tensor(c.storage, c.dtype, shape, st, c.offset)

    def float(self):
        return self

    def view(self, dt):
        assert dt is uint8 and self.is_contiguous()
        return _Bytes(struct.pack("<%d%s" % (self.numel(), self.dtype.code), *self.tolist_flat()))

    def to(self, dt):
        return self


def tensor(vals, dt=float32):
    s = _Storage(len(vals), dt)
    s.vals = list(vals)
    return Tensor(s, dt, (len(vals),), (1,))


def empty(n, dtype=float32, device=None):
    return tensor([0] * n, dtype)


class cuda:
    @staticmethod
    def synchronize():
        pass
