package tensor_test

import (
	"bytes"
	"fmt"

	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// Make reports a shape no tensor can have; New is for shapes already
// checked.
func ExampleMake() {
	t, err := tensor.Make(ir.Float32, 2, 3)
	fmt.Println(t, t.NumElements(), err)
	_, err = tensor.Make(ir.Float32, -5)
	fmt.Println(err)
	// Output:
	// float32[2 3] 6 <nil>
	// tensor: negative dimension -5 in shape [-5]
}

// A tensor written in NumPy's .npy format and read back.
func ExampleReadNPY() {
	t := tensor.New(ir.Int32, 3)
	for i := range 3 {
		t.SetInt(i, int64(10*i))
	}
	var buf bytes.Buffer
	if err := tensor.WriteNPY(&buf, t); err != nil {
		fmt.Println(err)
	}
	back, err := tensor.ReadNPY(&buf)
	fmt.Println(back, back.Int(2), err)
	// Output: int32[3] 20 <nil>
}
