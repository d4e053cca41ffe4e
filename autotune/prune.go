package autotune

// This file implements prune_configs_by's early_config_prune.

import (
	"maps"
	"slices"

	"github.com/go-python/gpython/py"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/hosteval"
)

// Prune returns the configs to time: all of them, or those that
// early_config_prune(configs, named_args, **kwargs) keeps, called with the
// launch's arguments that args returns (by name, defaults included, and
// those given by keyword). A config it makes anew is added to the list.
func (t *Tuning) Prune(args func() (named, kwargs map[string]hosteval.Value, err error)) ([]int, error) {
	a := t.Autotune
	if a.prune == nil {
		out := make([]int, len(a.Configs))
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	named, kw, err := args()
	if err != nil {
		return nil, err
	}
	toDict := func(m map[string]hosteval.Value) (py.StringDict, error) {
		d := py.NewStringDict()
		for _, name := range slices.Sorted(maps.Keys(m)) {
			o, err := t.host.toPy(m[name])
			if err != nil {
				return nil, hosteval.Usage(diag.Errorf(a.Pos, diag.CodeArgs, "early_config_prune: argument '%s': %v", name, err))
			}
			d[name] = o
		}
		return d, nil
	}
	nargs, err := toDict(named)
	if err != nil {
		return nil, err
	}
	kwargs, err := toDict(kw)
	if err != nil {
		return nil, err
	}
	objs := make([]py.Object, len(a.Configs))
	for i, c := range a.Configs {
		objs[i] = c.obj
	}
	res, err := t.host.call(a.prune, py.Tuple{py.NewListFromItems(objs), nargs}, kwargs, a.Pos, "early_config_prune")
	if err != nil {
		return nil, err
	}
	items, ok := pySeq(res)
	if !ok {
		return nil, hosteval.Usage(diag.Errorf(a.Pos, diag.CodeValue, "early_config_prune returned %s, not a list of configs", pyTypeName(res)))
	}
	var out []int
	for _, o := range items {
		i := slices.IndexFunc(a.Configs, func(c *Config) bool { return same(c.obj, o) })
		if i < 0 {
			c, err := t.readConfig(o, len(a.Configs), a.Pos)
			if err != nil {
				return nil, err
			}
			desc := c.Describe(t.fn)
			if i = slices.IndexFunc(a.Configs, func(x *Config) bool { return x.Describe(t.fn) == desc }); i < 0 {
				a.Configs = append(a.Configs, c)
				i = len(a.Configs) - 1
			}
		}
		if !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	if len(out) == 0 {
		return nil, hosteval.Usage(diag.Errorf(a.Pos, diag.CodeValue, "early_config_prune left no config to time"))
	}
	return out, nil
}
