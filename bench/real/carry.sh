#!/bin/bash
# Lay out the files of other projects that the specs in bench/real/ name,
# unchanged, under bin/real/<project>/ (paths inside each project kept), and
# write bin/real/SOURCES.txt with each project's URL and commit.
#
# usage: bench/real/carry.sh DIR
#
# DIR holds one exported checkout per project, each in a folder named as the
# repository (DIR/lightllm, DIR/Liger-Kernel, ...), at the commits below.
# Only the files the kernels import are copied, so bin/real stays small
# enough to travel with tri to a GPU machine. A package __init__.py that
# imports the package's whole op list or heavy dependencies (transformers,
# einops, compiled extensions) is left out: Python and tri then import the
# folder as a namespace package. Run from the repository root.
set -euo pipefail
src=${1:?usage: bench/real/carry.sh DIR (the folder of exported projects)}
dst=bin/real

# project folder in DIR | folder under bin/real | URL | commit
projects() {
	cat <<'EOF'
attorch attorch https://github.com/BobMcDear/attorch 67c2772baf33913ef51c2d1064f746ca17b63749
flash-linear-attention fla https://github.com/fla-org/flash-linear-attention bc3b101dcb713ddc5bd8924b66754eb68b5ccf89
lightllm lightllm https://github.com/ModelTC/lightllm fc72ffab9a3455cfb571f22d45ab777cc29de0de
kernl kernl https://github.com/ELS-RD/kernl 91e2cd92db44d503874d39a9f6dec42c9f481a8e
xformers xformers https://github.com/facebookresearch/xformers ca6d2aa0d43241fc8a8dcd872debc2406160160d
Liger-Kernel liger https://github.com/linkedin/Liger-Kernel ead96b618e5c67bddc6a6e9bcb99bfe6b5ab661c
tritonbench tritonbench https://github.com/pytorch-labs/tritonbench 0efdc53db96523fa02f890015e81a4144eb7b369
torchao torchao https://github.com/pytorch/ao 36027d82d1ad9949597ea16002ff4940374b1b94
FlagGems flaggems https://github.com/FlagOpen/FlagGems 532ff438c70343d7aec9becdabb76a71225a0553
EOF
}

# folder under bin/real | path in the project (a folder: its .py files, recursively)
files() {
	cat <<'EOF'
attorch attorch
fla fla
lightllm lightllm/models/llama/triton_kernel/rmsnorm.py
lightllm lightllm/models/llama/triton_kernel/rotary_emb.py
lightllm lightllm/models/llama/triton_kernel/silu_and_mul.py
lightllm lightllm/models/llama/triton_kernel/embedding.py
lightllm lightllm/models/llama/triton_kernel/token_attention_nopad_softmax.py
lightllm lightllm/models/llama/triton_kernel/context_flashattention_nopad.py
lightllm lightllm/__init__.py
lightllm lightllm/utils/__init__.py
lightllm lightllm/utils/device_utils.py
lightllm lightllm/utils/log_utils.py
lightllm lightllm/models/llama/__init__.py
lightllm lightllm/models/llama/triton_kernel/__init__.py
kernl src/kernl/implementations/layer_norm.py
xformers xformers/ops/_triton/k_scaled_index_add.py
xformers xformers/ops/_triton/k_index_select_cat.py
xformers xformers/ops/_triton/rmsnorm_kernels.py
xformers xformers/triton/__init__.py
xformers xformers/triton/importing.py
liger src/liger_kernel/ops/rope.py
liger src/liger_kernel/ops/qwen2vl_mrope.py
liger src/liger_kernel/ops/llama4_rope.py
tritonbench tritonbench/operators/layer_norm/tutorial.py
tritonbench tritonbench/operators/jagged_mean/kernels.py
tritonbench tritonbench/operators/jagged_softmax/kernels.py
tritonbench tritonbench/operators/sum/kernels.py
torchao torchao/prototype/moe_training/kernels/float8_rowwise.py
flaggems src/flag_gems/fused/topk_softmax.py
flaggems src/flag_gems/fused/rwkv_ka_fusion.py
flaggems src/flag_gems/fused/rwkv_mm_sparsity.py
flaggems src/flag_gems/fused/moe_align_block_size.py
EOF
}

rm -rf "$dst"
mkdir -p "$dst"
declare -A from
while read -r dir name url commit; do
	[[ -d "$src/$dir" ]] || {
		echo "carry.sh: $src/$dir: no such folder" >&2
		exit 1
	}
	from[$name]=$src/$dir
	echo "$name $url $commit" >>"$dst/SOURCES.txt"
done < <(projects)

while read -r name path; do
	root=${from[$name]}
	if [[ -d "$root/$path" ]]; then
		(cd "$root" && find "$path" -name '*.py' -type f) | while read -r f; do
			mkdir -p "$dst/$name/$(dirname "$f")"
			cp "$root/$f" "$dst/$name/$f"
		done
	else
		mkdir -p "$dst/$name/$(dirname "$path")"
		cp "$root/$path" "$dst/$name/$path"
	fi
done < <(files)
echo "carry.sh: $(find "$dst" -type f | wc -l) files, $(du -sh "$dst" | cut -f1) in $dst"
