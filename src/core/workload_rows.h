/* The workloads' table, one row each, in the order --list-workloads and the
 * suite show them: WORKLOAD_ROW(ID, fields) gives the enum's WORKLOAD_ID
 * (workload.h) and its row of workload_info (workload.c), so a workload is
 * this one row (and its arithmetic's, when it has one of its own: .arith
 * names the row whose chains, push constants and reference it shares;
 * core/fmawork.c). Every field of every row is named: no meaning rests on a
 * zero default. Included only by workload.h and workload.c, with
 * WORKLOAD_ROW defined. */
WORKLOAD_ROW(FP32,
	.name = "fp32", .unit = UNIT_FLOPS, .kind = WL_FMA, .arith = WORKLOAD_FP32,
	.shader = "fma_fp32.comp", .define = NULL, .rate = RATE_FP32, .check = RESULT_F32_REL, .scalar = false, .elem = 4,
	.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
	.needs = 0, .matrix = false, .mtypes = { 0, 0 },
	.what = "FP32 fused multiply-add chains")
WORKLOAD_ROW(FP64,
	.name = "fp64", .unit = UNIT_FLOPS, .kind = WL_FMA, .arith = WORKLOAD_FP64,
	.shader = "fma_typed.comp", .define = "TYPE_FP64", .rate = RATE_FP64, .check = RESULT_F64_REL, .scalar = false, .elem = 8,
	.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
	.needs = FEAT(FEAT_FLOAT64), .matrix = false, .mtypes = { 0, 0 },
	.what = "FP64 fused multiply-add chains")
WORKLOAD_ROW(INT32,
	.name = "int32", .unit = UNIT_IOPS, .kind = WL_FMA, .arith = WORKLOAD_INT32,
	.shader = "fma_typed.comp", .define = "TYPE_INT32", .rate = RATE_INT32, .check = RESULT_U32_EXACT, .scalar = false, .elem = 4,
	.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
	.needs = 0, .matrix = false, .mtypes = { 0, 0 },
	.what = "32-bit integer multiply-add chains (x * a + b, wrapping)")
WORKLOAD_ROW(FP16,
	.name = "fp16", .unit = UNIT_FLOPS, .kind = WL_FMA, .arith = WORKLOAD_FP16,
	.shader = "fma_typed.comp", .define = "TYPE_FP16", .rate = RATE_FP16_PACKED, .check = RESULT_F32_EXACT, .scalar = false, .elem = 4,
	.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
	.needs = FEAT(FEAT_FLOAT16), .matrix = false, .mtypes = { 0, 0 },
	.what = "FP16 fused multiply-add chains in f16vec4 (packed where the device packs)")
/* WORKLOAD_INT8DOT: packed 4 x 8-bit dot products plus an add (uint) */
WORKLOAD_ROW(INT8DOT,
	.name = "int8dot", .unit = UNIT_IOPS, .kind = WL_FMA, .arith = WORKLOAD_INT8DOT,
	.shader = "fma_typed.comp", .define = "TYPE_INT8DOT", .rate = RATE_DP4A, .check = RESULT_U32_EXACT, .scalar = false, .elem = 4,
	.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
	.needs = FEAT(FEAT_INT_DOT), .matrix = false, .mtypes = { 0, 0 },
	.what = "packed 4 x 8-bit dot products plus an add (OpUDot + OpIAdd, dp4a): 8 ops each")
/* WORKLOAD_FP32_SCALAR: fp32's chains as scalars */
WORKLOAD_ROW(FP32_SCALAR,
	.name = "fp32-scalar", .unit = UNIT_FLOPS, .kind = WL_FMA, .arith = WORKLOAD_FP32,
	.shader = "fma_typed.comp", .define = "TYPE_FP32", .rate = RATE_FP32, .check = RESULT_F32_REL, .scalar = true, .elem = 4,
	.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
	.needs = 0, .matrix = false, .mtypes = { 0, 0 },
	.what = "fp32's chains as scalar variables (vkpeak's fp32-scalar)")
/* WORKLOAD_FP16_SCALAR: fp16's chains as scalars (no packing possible) */
WORKLOAD_ROW(FP16_SCALAR,
	.name = "fp16-scalar", .unit = UNIT_FLOPS, .kind = WL_FMA, .arith = WORKLOAD_FP16,
	.shader = "fma_typed.comp", .define = "TYPE_FP16", .rate = RATE_FP16_SCALAR, .check = RESULT_F32_EXACT, .scalar = true, .elem = 4,
	.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
	.needs = FEAT(FEAT_FLOAT16), .matrix = false, .mtypes = { 0, 0 },
	.what = "fp16's chains as scalar float16_t variables: nothing to pack")
/* WORKLOAD_FP64_SCALAR: fp64's chains as scalars */
WORKLOAD_ROW(FP64_SCALAR,
	.name = "fp64-scalar", .unit = UNIT_FLOPS, .kind = WL_FMA, .arith = WORKLOAD_FP64,
	.shader = "fma_typed.comp", .define = "TYPE_FP64", .rate = RATE_FP64, .check = RESULT_F64_REL, .scalar = true, .elem = 8,
	.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
	.needs = FEAT(FEAT_FLOAT64), .matrix = false, .mtypes = { 0, 0 },
	.what = "fp64's chains as scalar double variables (vkpeak's fp64-scalar)")
/* WORKLOAD_INT16: 16-bit integer multiply-add chains (u16vec4, wrapping) */
WORKLOAD_ROW(INT16,
	.name = "int16", .unit = UNIT_IOPS, .kind = WL_FMA, .arith = WORKLOAD_INT16,
	.shader = "fma_typed.comp", .define = "TYPE_INT16", .rate = RATE_UNPUBLISHED, .check = RESULT_U32_EXACT, .scalar = false, .elem = 4,
	.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
	.needs = FEAT(FEAT_INT16), .matrix = false, .mtypes = { 0, 0 },
	.what = "16-bit integer multiply-add chains in u16vec4 (x * a + b, wrapping)")
/* WORKLOAD_INT64: 64-bit integer multiply-add chains (u64vec4, wrapping) */
WORKLOAD_ROW(INT64,
	.name = "int64", .unit = UNIT_IOPS, .kind = WL_FMA, .arith = WORKLOAD_INT64,
	.shader = "fma_typed.comp", .define = "TYPE_INT64", .rate = RATE_UNPUBLISHED, .check = RESULT_U32_EXACT, .scalar = false, .elem = 4,
	.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
	.needs = FEAT(FEAT_INT64), .matrix = false, .mtypes = { 0, 0 },
	.what = "64-bit integer multiply-add chains in u64vec4 (x * a + b, wrapping)")
/* WORKLOAD_FP16_MATRIX: cooperative-matrix multiply-add, fp16 in, fp32 accumulate */
WORKLOAD_ROW(FP16_MATRIX,
	.name = "fp16-matrix", .unit = UNIT_FLOPS, .kind = WL_FMA, .arith = WORKLOAD_FP16_MATRIX,
	.shader = "coopmat.comp", .define = "TYPE_FP16_MATRIX", .rate = RATE_TENSOR_16, .check = RESULT_F32_EXACT, .scalar = false, .elem = 4,
	.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
	.needs = FEAT(FEAT_NV_COOPMAT) | FEAT(FEAT_FLOAT16), .matrix = true, .mtypes = { .in = 0, .acc = 1 },
	.what = "cooperative-matrix multiply-add (tensor cores), fp16 in, fp32 accumulate")
/* WORKLOAD_FP16_MATRIX_F16: ... fp16 in, fp16 accumulate */
WORKLOAD_ROW(FP16_MATRIX_F16,
	.name = "fp16-matrix-f16", .unit = UNIT_FLOPS, .kind = WL_FMA, .arith = WORKLOAD_FP16_MATRIX_F16,
	.shader = "coopmat.comp", .define = "TYPE_FP16_MATRIX_F16", .rate = RATE_TENSOR_16, .check = RESULT_F32_EXACT, .scalar = false, .elem = 4,
	.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
	.needs = FEAT(FEAT_NV_COOPMAT) | FEAT(FEAT_FLOAT16), .matrix = true, .mtypes = { .in = 0, .acc = 0 },
	.what = "cooperative-matrix multiply-add (tensor cores), fp16 in, fp16 accumulate")
/* WORKLOAD_INT8_MATRIX: ... signed 8-bit in, 32-bit accumulate */
WORKLOAD_ROW(INT8_MATRIX,
	.name = "int8-matrix", .unit = UNIT_IOPS, .kind = WL_FMA, .arith = WORKLOAD_INT8_MATRIX,
	.shader = "coopmat.comp", .define = "TYPE_INT8_MATRIX", .rate = RATE_TENSOR_8, .check = RESULT_U32_EXACT, .scalar = false, .elem = 4,
	.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
	.needs = FEAT(FEAT_NV_COOPMAT) | FEAT(FEAT_INT8), .matrix = true, .mtypes = { .in = 3, .acc = 5 },
	.what = "cooperative-matrix multiply-add (tensor cores), int8 in, int32 accumulate")
/* WORKLOAD_BF16_MATRIX: ... bfloat16 in, fp32 accumulate (VK_KHR_shader_bfloat16) */
WORKLOAD_ROW(BF16_MATRIX,
	.name = "bf16-matrix", .unit = UNIT_FLOPS, .kind = WL_FMA, .arith = WORKLOAD_FP16_MATRIX,
	.shader = "coopmat.comp", .define = "TYPE_STANDIN_MATRIX", .rate = RATE_TENSOR_16, .check = RESULT_F32_EXACT, .scalar = false, .elem = 4,
	.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
	.needs = FEAT(FEAT_BF16_COOPMAT), .matrix = true, .mtypes = { .in = 1000141000, .acc = 1 },
	.what = "cooperative-matrix multiply-add (tensor cores), bfloat16 in, fp32 accumulate")
/* WORKLOAD_COPY: device memory: a copy kernel over device-local buffers */
WORKLOAD_ROW(COPY,
	.name = "copy", .unit = UNIT_BYTES, .kind = WL_COPY, .arith = WORKLOAD_COPY,
	.shader = "copy.comp", .define = NULL, .rate = RATE_NONE, .check = RESULT_NONE, .scalar = false, .elem = 0,
	.src = MEM_DEVICE, .dst = MEM_DEVICE, .bytes_per_byte = 2,
	.needs = 0, .matrix = false, .mtypes = { 0, 0 },
	.what = "device memory bandwidth: a copy shader, bytes read + written")
/* WORKLOAD_H2D: vkCmdCopyBuffer host-visible coherent -> device-local */
WORKLOAD_ROW(H2D,
	.name = "h2d", .unit = UNIT_BYTES, .kind = WL_TRANSFER, .arith = WORKLOAD_H2D,
	.shader = NULL, .define = NULL, .rate = RATE_NONE, .check = RESULT_NONE, .scalar = false, .elem = 0,
	.src = MEM_HOST_COHERENT, .dst = MEM_DEVICE, .bytes_per_byte = 1,
	.needs = 0, .matrix = false, .mtypes = { 0, 0 },
	.what = "vkCmdCopyBuffer host (coherent) to device, size sweep")
/* WORKLOAD_H2D_CACHED: host-visible cached -> device-local */
WORKLOAD_ROW(H2D_CACHED,
	.name = "h2d-cached", .unit = UNIT_BYTES, .kind = WL_TRANSFER, .arith = WORKLOAD_H2D_CACHED,
	.shader = NULL, .define = NULL, .rate = RATE_NONE, .check = RESULT_NONE, .scalar = false, .elem = 0,
	.src = MEM_HOST_CACHED, .dst = MEM_DEVICE, .bytes_per_byte = 1,
	.needs = 0, .matrix = false, .mtypes = { 0, 0 },
	.what = "vkCmdCopyBuffer host (cached) to device, size sweep")
/* WORKLOAD_D2H: device-local -> host-visible coherent */
WORKLOAD_ROW(D2H,
	.name = "d2h", .unit = UNIT_BYTES, .kind = WL_TRANSFER, .arith = WORKLOAD_D2H,
	.shader = NULL, .define = NULL, .rate = RATE_NONE, .check = RESULT_NONE, .scalar = false, .elem = 0,
	.src = MEM_DEVICE, .dst = MEM_HOST_COHERENT, .bytes_per_byte = 1,
	.needs = 0, .matrix = false, .mtypes = { 0, 0 },
	.what = "vkCmdCopyBuffer device to host (coherent), size sweep")
/* WORKLOAD_D2H_CACHED: device-local -> host-visible cached */
WORKLOAD_ROW(D2H_CACHED,
	.name = "d2h-cached", .unit = UNIT_BYTES, .kind = WL_TRANSFER, .arith = WORKLOAD_D2H_CACHED,
	.shader = NULL, .define = NULL, .rate = RATE_NONE, .check = RESULT_NONE, .scalar = false, .elem = 0,
	.src = MEM_DEVICE, .dst = MEM_HOST_CACHED, .bytes_per_byte = 1,
	.needs = 0, .matrix = false, .mtypes = { 0, 0 },
	.what = "vkCmdCopyBuffer device to host (cached), size sweep")
/* WORKLOAD_D2D: device-local -> device-local */
WORKLOAD_ROW(D2D,
	.name = "d2d", .unit = UNIT_BYTES, .kind = WL_TRANSFER, .arith = WORKLOAD_D2D,
	.shader = NULL, .define = NULL, .rate = RATE_NONE, .check = RESULT_NONE, .scalar = false, .elem = 0,
	.src = MEM_DEVICE, .dst = MEM_DEVICE, .bytes_per_byte = 2,
	.needs = 0, .matrix = false, .mtypes = { 0, 0 },
	.what = "vkCmdCopyBuffer device to device, size sweep, bytes read + written")
/* WORKLOAD_H2H: host-visible coherent -> host-visible coherent */
WORKLOAD_ROW(H2H,
	.name = "h2h", .unit = UNIT_BYTES, .kind = WL_TRANSFER, .arith = WORKLOAD_H2H,
	.shader = NULL, .define = NULL, .rate = RATE_NONE, .check = RESULT_NONE, .scalar = false, .elem = 0,
	.src = MEM_HOST_COHERENT, .dst = MEM_HOST_COHERENT, .bytes_per_byte = 1,
	.needs = 0, .matrix = false, .mtypes = { 0, 0 },
	.what = "vkCmdCopyBuffer host (coherent) to host (coherent), size sweep, bytes copied")
/* WORKLOAD_POWER: multiply-adds on random operands (core/powerwork.h) */
WORKLOAD_ROW(POWER,
	.name = "power", .unit = UNIT_FLOPS, .kind = WL_POWER, .arith = WORKLOAD_POWER,
	.shader = "power.comp", .define = NULL, .rate = RATE_UNPUBLISHED, .check = RESULT_NONE, .scalar = false, .elem = 4,
	.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
	.needs = 0, .matrix = false, .mtypes = { 0, 0 },
	.what = "multiply-adds on random operands that change every multiply, for the power a real load draws "
	        "(fp16 cooperative matrices where the device has them, else fp32 FMA chains and loads)")
