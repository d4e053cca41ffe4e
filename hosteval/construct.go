package hosteval

// This file implements the tensor constructors of --let: randn, rand,
// randint, zeros, ones, empty, full, arange, the *_like forms, tensor,
// load and ptrs.
//
// dtype is given as a string ('float16', 'bfloat16', 'int32', 'bool',
// 'float8e4nv' or torch's 'float8_e4m3fn') or a dtype (tl.float16,
// torch.float16); fp8 values are rounded to nearest even, saturating, and
// load() of a uint8 or int8 file with an fp8 dtype takes its bytes as the
// codes. The dtype defaults to float32, except for
// randint and arange, whose values are integers and default to int32.
// empty fills floats with NaN and other dtypes with the byte 0x5A
// (0x5A5A5A5A for int32; bool elements are True), so elements a kernel
// never writes show. A device= keyword, as in torch, is accepted and
// ignored.
//
// Under Env.DeferData the constructors but tensor, load and ptrs make
// deferred tensors: a random one keeps the state of its binding's stream
// and makes the same numbers when read (see stream). Fills look at the
// dtype once per chunk of elements (tensor.SetFloats), not per element.

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"path/filepath"
	"strconv"

	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// maxElements bounds the size of a generated tensor unless
// Env.MaxElements sets a lower bound; deferredMaxElements bounds a deferred
// one (Env.DeferData), which costs nothing until it is made.
const (
	maxElements         int64 = 1 << 31
	deferredMaxElements int64 = 1 << 48
)

// elementLimit is the most elements a constructor may make.
func (e *Env) elementLimit() int64 {
	limit := maxElements
	if e.DeferData {
		limit = deferredMaxElements
	}
	if e.MaxElements > 0 && e.MaxElements < limit {
		return e.MaxElements
	}
	return limit
}

// tooLarge is the error of a tensor of more than limit elements.
func tooLarge(at frontend.Node, fn string, limit int64) error {
	n := strconv.FormatInt(limit, 10)
	if limit&(limit-1) == 0 {
		n = fmt.Sprintf("2^%d", bits.TrailingZeros64(uint64(limit)))
	}
	return Errf(at, "%s(): a tensor of more than %s elements is too large", fn, n)
}

var constructors = map[string]builtin{
	"randn":      ctorRandom(fillRandn),
	"rand":       ctorRandom(fillRand),
	"zeros":      ctorFill(fillZeros),
	"ones":       ctorFill(fillOnes),
	"empty":      ctorFill(fillPoison),
	"randint":    ctorRandint,
	"full":       ctorFull,
	"arange":     ctorArange,
	"randn_like": ctorLike(fillRandn, nil),
	"rand_like":  ctorLike(fillRand, nil),
	"zeros_like": ctorLike(nil, fillZeros),
	"ones_like":  ctorLike(nil, fillOnes),
	"empty_like": ctorLike(nil, fillPoison),
	"full_like":  ctorFullLike,
	"tensor":     ctorTensor,
	"load":       ctorLoad,
	"ptrs":       ctorPtrs,
}

// filler sets the elements of a new (zeroed) tensor.
type filler func(t *tensor.Tensor)

// randomFiller sets the elements of a new tensor from r, in order; with
// store false it only draws the numbers it would store (to move a stream
// past a deferred tensor), and t's elements need not be made.
type randomFiller func(r *rand.Rand, t *tensor.Tensor, store bool)

// drawChunk is how many numbers a random filler draws before it stores
// them, with the tensor's kind looked at once.
const drawChunk = 1024

// fillRandn and fillRand draw normal and uniform [0, 1) floats.
var (
	fillRandn = fillFloats((*rand.Rand).NormFloat64)
	fillRand  = fillFloats((*rand.Rand).Float64)
)

// fillFloats returns the filler of the floats draw gives, drawn a chunk
// at a time and stored with the tensor's kind looked at once.
func fillFloats(draw func(*rand.Rand) float64) randomFiller {
	return func(r *rand.Rand, t *tensor.Tensor, store bool) {
		var buf [drawChunk]float64
		for i, n := 0, t.NumElements(); i < n; i += drawChunk {
			c := buf[:min(drawChunk, n-i)]
			for j := range c {
				c[j] = draw(r)
			}
			if store {
				t.SetFloats(i, c)
			}
		}
	}
}

// fillRandint returns the filler of integers in [lo, lo+span).
func fillRandint(lo int64, span uint64) randomFiller {
	return func(r *rand.Rand, t *tensor.Tensor, store bool) {
		var buf [drawChunk]int64
		for i, n := 0, t.NumElements(); i < n; i += drawChunk {
			c := buf[:min(drawChunk, n-i)]
			for j := range c {
				c[j] = lo + int64(r.Uint64N(span))
			}
			if store {
				t.SetInts(i, c)
			}
		}
	}
}

func fillZeros(t *tensor.Tensor) {}

func fillOnes(t *tensor.Tensor) { t.FillInt(1) }

// fillPoison fills with NaN for floats, 0x5A bytes for integers, True for
// bools.
func fillPoison(t *tensor.Tensor) {
	switch {
	case t.Kind == ir.Bool:
		t.FillInt(1)
	case t.Kind.IsFloat():
		t.FillFloat(math.NaN())
	default:
		for i := range t.Data {
			t.Data[i] = 0x5a
		}
	}
}

// newTensor allocates a tensor of kind k and the given shape (rank 0 for an
// empty shape).
func newTensor(k ir.Kind, shape []int) *tensor.Tensor {
	return tensor.New(k, shape...)
}

// filled returns a tensor of kind k and the given shape that fill sets:
// deferred under e.DeferData, else made at once. fill may run any number of
// times, on tensors made from scratch.
func (e *Env) filled(k ir.Kind, shape []int, fill filler) (*tensor.Tensor, error) {
	if e.DeferData {
		return tensor.Deferred(k, shape, fill)
	}
	t, err := tensor.Make(k, shape...)
	if err != nil {
		return nil, err
	}
	fill(t)
	return t, nil
}

// random returns a tensor that fill sets from the evaluation's random
// stream: deferred under e.DeferData, where the stream owes its draws to
// what draws after it, else made at once. Either way each element gets the
// same number.
func (e *Env) random(k ir.Kind, shape []int, fill randomFiller) (*tensor.Tensor, error) {
	if !e.DeferData {
		t, err := tensor.Make(k, shape...)
		if err != nil {
			return nil, err
		}
		fill(e.rng.now(), t, true)
		return t, nil
	}
	var start func() *rand.Rand
	t, err := tensor.Deferred(k, shape, func(t *tensor.Tensor) { fill(start(), t, true) })
	if err != nil {
		return nil, err
	}
	start = e.rng.later(func(r *rand.Rand) { fill(r, t, false) })
	return t, nil
}

// dtype reads the dtype= keyword, defaulting to def.
func (c *callArgs) dtype(def ir.Kind) (ir.Kind, error) {
	c.take("device")
	a, ok := c.take("dtype")
	if !ok {
		return def, nil
	}
	return dtypeOf(a)
}

// dtypeOf reads a dtype given as a string or a dtype value.
func dtypeOf(a arg) (ir.Kind, error) {
	switch a.v.Kind {
	case VDType:
		return a.v.DType.Kind, nil
	case VStr:
		if d, ok := ir.ParseDType(a.v.Str); ok && !d.IsPtr() {
			return d.Kind, nil
		}
		return 0, Errf(a.at, "unknown dtype %q (want 'float32', 'float16', 'bfloat16', 'float64', 'int8'..'int64', 'uint8'..'uint64', 'bool', 'float8e4nv' or 'float8e5')", a.v.Str)
	}
	return 0, Errf(a.at, "dtype must be a string such as 'float16' or a dtype such as tl.float16, not %s", a.v.Describe())
}

// shape reads the positional arguments from i on as a shape: separate
// integers or one tuple or list of them, of at most limit elements.
func (c *callArgs) shape(from int, limit int64) ([]int, error) {
	rest := c.pos[from:]
	var dims []arg
	if len(rest) == 1 && rest[0].v.Kind == VTuple {
		for _, el := range rest[0].v.Elems {
			dims = append(dims, arg{el, rest[0].at})
		}
	} else {
		dims = rest
	}
	shape := []int{}
	total := int64(1)
	for _, d := range dims {
		v := d.v.AsInt()
		if v.Kind != VInt {
			return nil, Errf(d.at, "%s(): a shape holds integers, not %s", c.name, d.v.Describe())
		}
		if v.Int < 0 {
			return nil, Errf(d.at, "%s(): negative dimension %d", c.name, v.Int)
		}
		if v.Int > limit || total*v.Int > limit {
			return nil, tooLarge(d.at, c.name, limit)
		}
		total *= v.Int
		shape = append(shape, int(v.Int))
	}
	return shape, nil
}

// ctorFill makes zeros, ones and empty: NAME(*shape, dtype=).
func ctorFill(fill filler) builtin {
	return func(e *Env, c *callArgs) (Value, error) {
		k, shape, err := c.dtypeAndShape(e, false)
		if err != nil {
			return Value{}, err
		}
		return c.result(e.filled(k, shape, fill))
	}
}

// ctorRandom makes randn and rand: NAME(*shape, dtype=), floats only.
func ctorRandom(fill randomFiller) builtin {
	return func(e *Env, c *callArgs) (Value, error) {
		k, shape, err := c.dtypeAndShape(e, true)
		if err != nil {
			return Value{}, err
		}
		return c.result(e.random(k, shape, fill))
	}
}

// dtypeAndShape reads the dtype= keyword (default float32; with
// floatOnly, a float) and the positional shape.
func (c *callArgs) dtypeAndShape(e *Env, floatOnly bool) (ir.Kind, []int, error) {
	k, err := c.dtype(ir.Float32)
	if err != nil {
		return 0, nil, err
	}
	if floatOnly && !k.IsFloat() {
		return 0, nil, Errf(c.call, "%s() makes floats, not %s; use randint for integers", c.name, ir.Scalar(k).PyName())
	}
	shape, err := c.shape(0, e.elementLimit())
	return k, shape, err
}

// result is the value of a constructor's tensor, or its error (a
// shape past what an int counts) placed at the call.
func (c *callArgs) result(t *tensor.Tensor, err error) (Value, error) {
	if err != nil {
		return Value{}, Errf(c.call, "%s(): %v", c.name, err)
	}
	return TensorValue(t), nil
}

// ctorLike makes the *_like forms: NAME(x, dtype=) with x's shape and, by
// default, its dtype; random (randn_like, rand_like, floats only) or fill
// sets the elements.
func ctorLike(random randomFiller, fill filler) builtin {
	return func(e *Env, c *callArgs) (Value, error) {
		src, err := c.tensorArg(0, 1)
		if err != nil {
			return Value{}, err
		}
		k, err := c.dtype(src.Kind)
		if err != nil {
			return Value{}, err
		}
		if random == nil {
			return c.result(e.filled(k, src.Shape, fill))
		}
		if !k.IsFloat() {
			return Value{}, Errf(c.call, "%s() makes floats, not %s", c.name, ir.Scalar(k).PyName())
		}
		return c.result(e.random(k, src.Shape, random))
	}
}

// tensorArg checks that there are n positional arguments and returns
// argument i as a tensor.
func (c *callArgs) tensorArg(i, n int) (*tensor.Tensor, error) {
	if err := c.nargs(n, n); err != nil {
		return nil, err
	}
	a := c.pos[i]
	if a.v.Kind != VTensor {
		return nil, Errf(a.at, "%s() wants a tensor here, not %s", c.name, a.v.Describe())
	}
	return a.v.Tensor, nil
}

// ctorRandint is randint(lo, hi, *shape, dtype=): integers in [lo, hi).
func ctorRandint(e *Env, c *callArgs) (Value, error) {
	if err := c.nargs(2, -1); err != nil {
		return Value{}, err
	}
	lo, err := c.int(0)
	if err != nil {
		return Value{}, err
	}
	hi, err := c.int(1)
	if err != nil {
		return Value{}, err
	}
	if hi <= lo {
		return Value{}, Errf(c.pos[1].at, "randint(): high %d must be greater than low %d (high is exclusive)", hi, lo)
	}
	k, err := c.dtype(ir.Int32)
	if err != nil {
		return Value{}, err
	}
	shape, err := c.shape(2, e.elementLimit())
	if err != nil {
		return Value{}, err
	}
	return c.result(e.random(k, shape, fillRandint(lo, uint64(hi-lo))))
}

// ctorFull is full(shape, value, dtype=).
func ctorFull(e *Env, c *callArgs) (Value, error) {
	if err := c.nargs(2, 2); err != nil {
		return Value{}, err
	}
	k, err := c.dtype(ir.Float32)
	if err != nil {
		return Value{}, err
	}
	sc := &callArgs{name: c.name, call: c.call, pos: c.pos[:1]}
	shape, err := sc.shape(0, e.elementLimit())
	if err != nil {
		return Value{}, err
	}
	fill, err := fillValue(c.pos[1], c.name)
	if err != nil {
		return Value{}, err
	}
	return c.result(e.filled(k, shape, fill))
}

// ctorFullLike is full_like(x, value, dtype=).
func ctorFullLike(e *Env, c *callArgs) (Value, error) {
	src, err := c.tensorArg(0, 2)
	if err != nil {
		return Value{}, err
	}
	k, err := c.dtype(src.Kind)
	if err != nil {
		return Value{}, err
	}
	fill, err := fillValue(c.pos[1], c.name)
	if err != nil {
		return Value{}, err
	}
	return c.result(e.filled(k, src.Shape, fill))
}

// fillValue returns the filler that sets every element to the number a.
func fillValue(a arg, fn string) (filler, error) {
	v := a.v.AsInt()
	switch v.Kind {
	case VInt:
		return func(t *tensor.Tensor) { t.FillInt(v.Int) }, nil
	case VFloat:
		return func(t *tensor.Tensor) { t.FillFloat(v.Float) }, nil
	}
	return nil, Errf(a.at, "%s(): the fill value must be a number, not %s", fn, a.v.Describe())
}

// ctorArange is arange(n), arange(lo, hi) or arange(lo, hi, step), dtype=.
func ctorArange(e *Env, c *callArgs) (Value, error) {
	if err := c.nargs(1, 3); err != nil {
		return Value{}, err
	}
	var b [3]int64
	b[2] = 1
	for i := range c.pos {
		v, err := c.int(i)
		if err != nil {
			return Value{}, err
		}
		b[i] = v
	}
	if len(c.pos) == 1 {
		b[0], b[1] = 0, b[0]
	}
	lo, hi, step := b[0], b[1], b[2]
	if step == 0 {
		return Value{}, Errf(c.pos[2].at, "arange(): step must not be zero")
	}
	k, err := c.dtype(ir.Int32)
	if err != nil {
		return Value{}, err
	}
	n := int64(0)
	if (step > 0 && hi > lo) || (step < 0 && hi < lo) {
		n = (hi - lo + step - sign(step)) / step
	}
	if limit := e.elementLimit(); n > limit {
		return Value{}, tooLarge(c.call, "arange", limit)
	}
	return c.result(e.filled(k, []int{int(n)}, func(t *tensor.Tensor) {
		var buf [drawChunk]int64
		for i := 0; i < int(n); i += drawChunk {
			c := buf[:min(drawChunk, int(n)-i)]
			for j := range c {
				c[j] = lo + int64(i+j)*step
			}
			t.SetInts(i, c)
		}
	}))
}

func sign(x int64) int64 {
	if x < 0 {
		return -1
	}
	return 1
}

// ctorTensor is tensor([...], dtype=): a literal, nested lists for rank > 1.
func ctorTensor(e *Env, c *callArgs) (Value, error) {
	if err := c.nargs(1, 1); err != nil {
		return Value{}, err
	}
	k, err := c.dtype(ir.Float32)
	if err != nil {
		return Value{}, err
	}
	a := c.pos[0]
	var shape []int
	for v := a.v; v.Kind == VTuple; {
		shape = append(shape, len(v.Elems))
		if len(v.Elems) == 0 {
			break
		}
		v = v.Elems[0]
	}
	t := newTensor(k, shape)
	var flat []Value
	if err := flatten(a, a.v, shape, &flat); err != nil {
		return Value{}, err
	}
	for i, v := range flat {
		if err := fillOne(t, i, arg{v, a.at}); err != nil {
			return Value{}, err
		}
	}
	return TensorValue(t), nil
}

// flatten appends the scalars of a nested list in row-major order, checking
// that it is rectangular with the given shape.
func flatten(a arg, v Value, shape []int, out *[]Value) error {
	if len(shape) == 0 {
		if v.Kind == VTuple {
			return Errf(a.at, "tensor(): the list is not rectangular")
		}
		*out = append(*out, v)
		return nil
	}
	if v.Kind != VTuple || len(v.Elems) != shape[0] {
		return Errf(a.at, "tensor(): the list is not rectangular")
	}
	for _, el := range v.Elems {
		if err := flatten(a, el, shape[1:], out); err != nil {
			return err
		}
	}
	return nil
}

func fillOne(t *tensor.Tensor, i int, a arg) error {
	v := a.v.AsInt()
	switch v.Kind {
	case VInt:
		t.SetInt(i, v.Int)
	case VFloat:
		t.SetFloat(i, v.Float)
	default:
		return Errf(a.at, "tensor(): elements must be numbers, not %s", a.v.Describe())
	}
	return nil
}

// ctorLoad is load("x.npy", dtype=): the file's array, converted to dtype
// if given.
func ctorLoad(e *Env, c *callArgs) (Value, error) {
	if err := c.nargs(1, 1); err != nil {
		return Value{}, err
	}
	a := c.pos[0]
	if a.v.Kind != VStr {
		return Value{}, Errf(a.at, "load() wants a path string, not %s", a.v.Describe())
	}
	path := a.v.Str
	if !filepath.IsAbs(path) && e.Dir != "" {
		path = filepath.Join(e.Dir, path)
	}
	t, err := tensor.LoadNPY(path)
	if err != nil {
		return Value{}, Usage(err)
	}
	k, err := c.dtype(t.Kind)
	if err != nil {
		return Value{}, err
	}
	if k.IsFP8() && (t.Kind == ir.Uint8 || t.Kind == ir.Int8) {
		// NumPy has no fp8: a file of bytes holds the codes (what --save
		// writes for an fp8 tensor).
		return TensorValue(&tensor.Tensor{Kind: k, Shape: t.Shape, Data: t.Data}), nil
	}
	return TensorValue(convert(t, k)), nil
}

// convert returns t with its elements converted to kind k (t itself if it
// is already of kind k).
func convert(t *tensor.Tensor, k ir.Kind) *tensor.Tensor {
	if t.Kind == k {
		return t
	}
	out := tensor.New(k, t.Shape...)
	for i := range t.NumElements() {
		if t.Kind.IsFloat() || k.IsFloat() {
			out.SetFloat(i, t.Float(i))
		} else {
			out.SetInt(i, t.Int(i))
		}
	}
	return out
}

// ctorPtrs is ptrs(a, b, ..., dtype='int64'): an int64 (or uint64) tensor
// of the device addresses of bound tensors, for kernels that take tables of
// pointers.
func ctorPtrs(e *Env, c *callArgs) (Value, error) {
	if err := c.nargs(1, -1); err != nil {
		return Value{}, err
	}
	var names []string
	for i, a := range c.pos {
		n, ok := c.call.Args[min(i, len(c.call.Args)-1)].(*frontend.Name)
		if !ok || len(c.pos) != len(c.call.Args) {
			return Value{}, Errf(a.at, "ptrs() takes names of bound tensors")
		}
		if a.v.Kind != VTensor || a.v.Ptrs != nil {
			return Value{}, Errf(a.at, "ptrs(): %s is %s, not a tensor", n.ID, a.v.Describe())
		}
		names = append(names, n.ID)
	}
	// A table is int64 (the default) or uint64, as kernels declare it.
	k, err := c.dtype(ir.Int64)
	if err != nil {
		return Value{}, err
	}
	if k != ir.Int64 && k != ir.Uint64 {
		return Value{}, Errf(c.call, "ptrs(): a pointer table is int64 or uint64, not %s", ir.Scalar(k).PyName())
	}
	v := TensorValue(tensor.New(k, len(names)))
	v.Ptrs = names
	return v, nil
}
