package launch_test

import (
	"fmt"
	"log"

	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/launch"
	"github.com/tri-lang/tri/tensor"
)

// Runs samples/add.tri's kernel in the interpreter on tensors made in Go:
// the launch line names them as the environment binds them.
func ExamplePrepareValues() {
	sf, err := launch.ParseFile("../samples/add.tri", nil)
	if err != nil {
		log.Fatal(err)
	}
	const n = 6
	x, y, out := tensor.New(ir.Float32, n), tensor.New(ir.Float32, n), tensor.New(ir.Float32, n)
	for i := range n {
		x.SetFloat(i, float64(i))
		y.SetFloat(i, 0.5)
	}
	env := hosteval.NewEnv(0)
	env.Set("x", hosteval.TensorValue(x))
	env.Set("y", hosteval.TensorValue(y))
	env.Set("out", hosteval.TensorValue(out))
	env.Set("n", hosteval.IntValue(n))
	l, err := hosteval.ParseLaunch("add_kernel[(triton.cdiv(n, 4),)](x, y, out, n, BLOCK_SIZE=4)")
	if err != nil {
		log.Fatal(err)
	}
	p, err := launch.PrepareValues(sf, sf.File.Func("add_kernel"), nil, l, env, nil)
	if err != nil {
		log.Fatal(err)
	}
	if err := p.Interpret(0); err != nil {
		log.Fatal(err)
	}
	sums := make([]float64, n)
	for i := range sums {
		sums[i] = out.Float(i)
	}
	fmt.Println(sums)
	// Output: [0.5 1.5 2.5 3.5 4.5 5.5]
}

// Runs the launch recorded in samples/add.tri's header ("# launch:" and
// "# let:", with n overridden) in the interpreter, and checks its output
// against the same sum computed in Go.
func ExamplePrepare() {
	p, err := launch.Prepare("../samples/add.tri", "", &launch.Options{Lets: []string{"n=1000"}, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	if err := p.Interpret(0); err != nil {
		log.Fatal(err)
	}
	x, _ := p.Env.Lookup("x")
	y, _ := p.Env.Lookup("y")
	output, _ := p.Env.Lookup("output")
	want := tensor.New(ir.Float32, output.Tensor.Shape...)
	for i := range want.NumElements() {
		want.SetFloat(i, x.Tensor.Float(i)+y.Tensor.Float(i))
	}
	fmt.Println(p.Kernel.Name, p.Grid, output.Tensor)
	fmt.Println(launch.CompareTensors("output", output.Tensor, want, "exact"))
	// Output:
	// add_kernel [1 1 1] float32[1000]
	// <nil>
}
