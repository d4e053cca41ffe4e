#!/usr/bin/env bash
# Launches of the kernels of Triton 3.6's tutorials 06, 08, 09 and 11 under tri,
# from the unchanged tutorial files, with the tutorials' own launch lines
# (their host wrappers' arguments written out) and small shapes.
#
#   runs.sh [DIR]            runs every kernel with --interpret (default)
#   MODE=--check runs.sh     on the GPU and in the interpreter, compared
#   MODE=build runs.sh       tri build --arch sm_90a (CUDA generation only)
#   MODE=gpu runs.sh         on the GPU only
#   ONLY=06 runs.sh          only the runs whose name starts with 06
#   MODE=review PAGES=DIR runs.sh
#                            tri review --arch sm_90a: one HTML page a run,
#                            in DIR (TRI_REVIEW_PAGES=DIR go test ./review
#                            then opens each in the browser test)
#
# DIR holds 06.py 08.py 09.py 11.py (default: this script's folder);
# TRI is the tri binary (default: tri on PATH, else bin/tri).
#
# The tutorial files are Triton's, unchanged, and are not part of this
# repository: take them from Triton's release/3.6.x branch (tip 7c56a5e4,
# "[release 3.6] Release Triton to pypi"), python/tutorials/
# 06-fused-attention.py, 08-grouped-gemm.py, 09-persistent-matmul.py and
# 11-programmatic-dependent-launch.py, saved as 06.py 08.py 09.py 11.py.
set -u
DIR=${1:-$(dirname "$0")}
TRI=${TRI:-$(command -v tri || echo bin/tri)}
MODE=${MODE:---interpret}
ONLY=${ONLY:-}
ARCH=${ARCH:-sm_90a}
pass=0; fail=0; failed=()

# run NAME FILE LAUNCH [--let ...]...
run() {
  local name=$1 file=$2 line=$3; shift 3
  [[ -n $ONLY && $name != $ONLY* ]] && return
  local out rc
  case $MODE in
    build) out=$("$TRI" build "$DIR/$file" "$line" "$@" --arch "$ARCH" -o /dev/null 2>&1); rc=$? ;;
    gpu)   out=$("$TRI" run "$DIR/$file" "$line" "$@" 2>&1); rc=$? ;;
    review) mkdir -p "${PAGES:?MODE=review needs PAGES=DIR}"
           out=$("$TRI" review "$DIR/$file" "$line" "$@" --arch "$ARCH" -o "$PAGES/$(echo "$name" | tr -c 'A-Za-z0-9_\n-' '_').html" 2>&1); rc=$? ;;
    *)     out=$("$TRI" run "$DIR/$file" "$line" "$@" $MODE 2>&1); rc=$? ;;
  esac
  if [[ $rc == 0 ]]; then
    pass=$((pass+1)); echo "PASS $name: $(echo "$out" | grep -v '^ \|warning' | tail -1)"
  else
    fail=$((fail+1)); failed+=("$name"); echo "FAIL $name (exit $rc):"; echo "$out" | grep -v "gropup_c_ptrs\|^    @triton\|^    ^$" | tail -15 | sed 's/^/    /'
  fi
}

# ---- 11: programmatic dependent launch (add(x, y, launch_pdl) of the tutorial; validate(1024))
for n in 1024 3000; do
  run "11 add_kernel n=$n pdl" 11.py \
    'add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024, USE_GDC=launch_pdl, launch_pdl=launch_pdl)' \
    --let n_elements=$n --let 'x=rand(n_elements)' --let 'y=rand(n_elements)' --let 'output=empty_like(x)' \
    --let 'launch_pdl=supports_pdl()' --let "grid=lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )"
done
run "11 add_kernel no pdl" 11.py \
  'add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024, USE_GDC=False, launch_pdl=False)' \
  --let n_elements=5000 --let 'x=rand(n_elements)' --let 'y=rand(n_elements)' --let 'output=empty_like(x)' \
  --let "grid=lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )"

# ---- 08: grouped GEMM (group_gemm_fn and group_gemm_tma_fn); the tutorial's own sizes are
# 1024/512/256/128 (multiples of 128: its kernels assume full tiles); here two gemms of 128s and 256s.
G08=(--let "A0=rand(256, 128, dtype='float16')" --let "B0=rand(128, 256, dtype='float16')" --let "C0=empty(256, 256, dtype='float16')"
     --let "A1=rand(128, 256, dtype='float16')" --let "B1=rand(256, 128, dtype='float16')" --let "C1=empty(128, 128, dtype='float16')"
     --let "d_a_ptrs=ptrs(A0, A1)" --let "d_b_ptrs=ptrs(B0, B1)" --let "d_c_ptrs=ptrs(C0, C1)"
     --let "d_g_sizes=tensor([256, 256, 128, 128, 128, 256], dtype='int32')"
     --let "d_g_lds=tensor([128, 256, 256, 256, 128, 128], dtype='int32')"
     --let group_size=2 --let "grid=lambda META: (META['NUM_SM'], )")
for cfg in 0 2 4 5; do
  run "08 grouped_matmul_kernel config $cfg" 08.py \
    'grouped_matmul_kernel[grid](d_a_ptrs, d_b_ptrs, d_c_ptrs, d_g_sizes, d_g_lds, group_size)' "${G08[@]}" --config $cfg
done
# group_gemm_tma_fn: B transposed (B_T = B.T.contiguous(), [N, K])
T08=(--let "A0=rand(256, 128, dtype='float16')" --let "B0=rand(256, 128, dtype='float16')" --let "C0=empty(256, 256, dtype='float16')"
     --let "A1=rand(128, 256, dtype='float16')" --let "B1=rand(128, 256, dtype='float16')" --let "C1=empty(128, 128, dtype='float16')"
     --let "d_a_ptrs=ptrs(A0, A1)" --let "d_b_ptrs=ptrs(B0, B1)" --let "d_c_ptrs=ptrs(C0, C1)"
     --let "d_g_sizes=tensor([256, 256, 128, 128, 128, 256], dtype='int32')"
     --let "d_g_lds=tensor([128, 128, 256, 256, 256, 128], dtype='int32')"
     --let group_size=2 --let "grid=lambda META: (META['NUM_SM'], )")
for cfg in 0 3 4; do
  run "08 grouped_matmul_tma_kernel config $cfg" 08.py \
    'grouped_matmul_tma_kernel[grid](d_a_ptrs, d_b_ptrs, d_c_ptrs, d_g_sizes, d_g_lds, group_size, FP8=torch.float8_e4m3fn == A0.dtype, NUM_SM=num_sms())' \
    "${T08[@]}" --config $cfg
done

# ---- 09: persistent matmul (validate(32, 32, 32) and a larger 384x256x320, fp16)
for shape in "32 32 32" "384 256 320"; do
  set -- $shape; M=$1; N=$2; K=$3
  S09=(--let M=$M --let N=$N --let K=$K --let "a=randn(M, K, dtype='float16')" --let "b=randn(K, N, dtype='float16')"
       --let "c=empty(M, N, dtype='float16')")
  run "09 matmul_kernel ${M}x${N}x${K}" 09.py \
    'matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))' \
    "${S09[@]}" --let 'grid=lambda META: (triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"]), )'
  run "09 matmul_kernel_persistent ${M}x${N}x${K}" 09.py \
    'matmul_kernel_persistent[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1), NUM_SMS=NUM_SMS)' \
    "${S09[@]}" --let 'NUM_SMS=torch.cuda.get_device_properties("cuda").multi_processor_count' \
    --let 'grid=lambda META: (min(NUM_SMS, triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"])), )'
  # matmul_tma / matmul_tma_persistent / matmul_descriptor_persistent take b transposed ([N, K])
  T09=(--let M=$M --let N=$N --let K=$K --let "a=randn(M, K, dtype='float16')" --let "b=randn(N, K, dtype='float16')"
       --let "c=empty(M, N, dtype='float16')" --let 'dummy_block=[1, 1]'
       --let 'a_desc=TensorDescriptor.from_tensor(a, dummy_block)' --let 'b_desc=TensorDescriptor.from_tensor(b, dummy_block)'
       --let 'c_desc=TensorDescriptor.from_tensor(c, dummy_block)'
       --let 'NUM_SMS=torch.cuda.get_device_properties("cuda").multi_processor_count')
  run "09 matmul_kernel_tma ${M}x${N}x${K}" 09.py \
    'matmul_kernel_tma[grid](a_desc, b_desc, c_desc, M, N, K, FP8_OUTPUT=a.dtype == torch.float8_e4m3fn, WARP_SPECIALIZE=False)' \
    "${T09[@]}" --let 'grid=lambda META: (triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"]), )'
  for cfg in 0 1; do  # config 0 has EPILOGUE_SUBTILE=True, config 1 False
    run "09 matmul_kernel_tma_persistent ${M}x${N}x${K} config $cfg" 09.py \
      'matmul_kernel_tma_persistent[grid](a_desc, b_desc, c_desc, M, N, K, FP8_OUTPUT=a.dtype == torch.float8_e4m3fn, NUM_SMS=NUM_SMS, WARP_SPECIALIZE=False)' \
      "${T09[@]}" --config $cfg \
      --let 'grid=lambda META: (min(NUM_SMS, triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"])), )'
  done
  for ws in False True; do  # Hopper: flatten = not (warp_specialize and is_hopper())
    run "09 matmul_kernel_descriptor_persistent ${M}x${N}x${K} ws=$ws" 09.py \
      'matmul_kernel_descriptor_persistent[grid](a, b, c, M, N, K, NUM_SMS=NUM_SMS, WARP_SPECIALIZE=ws, FLATTEN=False if (ws and is_hopper()) else True)' \
      "${T09[@]}" --let ws=$ws \
      --let 'grid=lambda META: (min(NUM_SMS, triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"])), )'
  done
done

# ---- 06: fused attention, _attention.forward / backward written out (test_op's shapes:
# Z 1, H 2, N_CTX 128 (and 256), HEAD_DIM 64 and 128, causal; non-causal too)
FWD06='_attn_fwd[grid](sm_scale, M, q.shape[0], q.shape[1], desc_q, desc_k, desc_v, desc_o, N_CTX=q.shape[2], HEAD_DIM=HEAD_DIM_K, FP8_OUTPUT=q.dtype == torch.float8_e5m2, STAGE=stage, warp_specialize=warp_specialize, IS_HOPPER=is_hopper(), **extra_kern_args)'
for shape in "1 2 128 64" "1 2 256 128"; do
  set -- $shape; Z=$1; H=$2; N_CTX=$3; HD=$4
  A06=(--let Z=$Z --let H=$H --let N_CTX=$N_CTX --let HEAD_DIM=$HD --let HEAD_DIM_K=$HD
       --let "q=randn(Z, H, N_CTX, HEAD_DIM, dtype='float16')" --let "k=randn(Z, H, N_CTX, HEAD_DIM, dtype='float16')"
       --let "v=randn(Z, H, N_CTX, HEAD_DIM, dtype='float16')" --let "o=empty_like(q)" --let "M=empty(Z, H, N_CTX)"
       --let sm_scale=0.5 --let "y_dim=Z * H * N_CTX"
       --let 'grid=lambda META: (triton.cdiv(q.shape[2], META["BLOCK_M"]), q.shape[0] * q.shape[1], 1)')
  D06=(--let "desc_q=TensorDescriptor(q, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[1, 1])"
       --let "desc_k=TensorDescriptor(k, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[1, 1])"
       --let "desc_v=TensorDescriptor(v, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[1, 1])"
       --let "desc_o=TensorDescriptor(o, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[1, 1])")
  for stage in 3 1; do
    # host descriptors (supports_host_descriptor() and not (is_hopper() and warp_specialize))
    # _attention.forward's launch line, verbatim
    run "06 _attn_fwd host-desc Z=$Z H=$H N_CTX=$N_CTX D=$HD STAGE=$stage" 06.py "$FWD06" \
      "${A06[@]}" "${D06[@]}" --let stage=$stage --let warp_specialize=False --let 'extra_kern_args={}'
    # Hopper with warp_specialize=True: tensors, descriptors made in the kernel
    run "06 _attn_fwd device-desc ws Z=$Z H=$H N_CTX=$N_CTX D=$HD STAGE=$stage" 06.py "$FWD06" \
      "${A06[@]}" --let desc_q=q --let desc_k=k --let desc_v=v --let desc_o=o \
      --let stage=$stage --let warp_specialize=True --let 'extra_kern_args={}'
  done
  # backward: _attn_bwd_preprocess then _attn_bwd (PRE_BLOCK 128; BLOCK_M1 32, BLOCK_N1 128, BLOCK_M2 128, BLOCK_N2 32)
  B06=("${A06[@]}" --let "o=randn(Z, H, N_CTX, HEAD_DIM, dtype='float16')" --let "do=randn(Z, H, N_CTX, HEAD_DIM, dtype='float16')"
       --let "delta=empty(Z, H, N_CTX)" --let "M=randn(Z, H, N_CTX)")
  run "06 _attn_bwd_preprocess Z=$Z H=$H N_CTX=$N_CTX D=$HD" 06.py \
    '_attn_bwd_preprocess[(N_CTX // 128, Z * H)](o, do, delta, Z, H, N_CTX, BLOCK_M=128, HEAD_DIM=HEAD_DIM)' "${B06[@]}"
  run "06 _attn_bwd Z=$Z H=$H N_CTX=$N_CTX D=$HD" 06.py \
    '_attn_bwd[(N_CTX // 128, 1, Z * H)](q, arg_k, v, sm_scale, do, dq, dk, dv, M, delta, q.stride(0), q.stride(1), q.stride(2), q.stride(3), H, N_CTX, BLOCK_M1=32, BLOCK_N1=128, BLOCK_M2=128, BLOCK_N2=32, BLK_SLICE_FACTOR=2, HEAD_DIM=HEAD_DIM, num_warps=4, num_stages=5)' \
    "${B06[@]}" --let "arg_k=randn(Z, H, N_CTX, HEAD_DIM, dtype='float16')" --let "delta=randn(Z, H, N_CTX)" \
    --let "dq=empty_like(q)" --let "dk=empty_like(k)" --let "dv=empty_like(v)"
done
# fp8 forward (test_op's triton-fp8: q, k e5m2, v transposed in memory, host descriptors; FP8_OUTPUT)
run "06 _attn_fwd fp8 host-desc Z=1 H=2 N_CTX=128 D=64 STAGE=3" 06.py "$FWD06" \
  --let stage=3 --let warp_specialize=False --let 'extra_kern_args={}' \
  --let Z=1 --let H=2 --let N_CTX=128 --let HEAD_DIM_K=64 --let HEAD_DIM=64 --let sm_scale=0.5 --let "y_dim=Z * H * N_CTX" \
  --let "q=randn(Z, H, N_CTX, HEAD_DIM, dtype='float8_e5m2')" --let "k=randn(Z, H, N_CTX, HEAD_DIM, dtype='float8_e5m2')" \
  --let "vt=randn(Z, H, HEAD_DIM, N_CTX, dtype='float8_e5m2')" --let "o=empty_like(q)" --let "M=empty(Z, H, N_CTX)" \
  --let "desc_q=TensorDescriptor(q, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[1, 1])" \
  --let "desc_k=TensorDescriptor(k, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[1, 1])" \
  --let "desc_v=TensorDescriptor(vt, shape=[HEAD_DIM, y_dim], strides=[N_CTX, 1], block_shape=[1, 1])" \
  --let "desc_o=TensorDescriptor(o, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[1, 1])" \
  --let 'grid=lambda META: (triton.cdiv(q.shape[2], META["BLOCK_M"]), q.shape[0] * q.shape[1], 1)'

echo "== $pass passed, $fail failed (MODE=$MODE)"
for f in "${failed[@]}"; do echo "   failed: $f"; done
[[ $fail == 0 ]]
