"""Writes the independent truth for the Protobuf and ONNX readers and `dfkit inspect` into OUTDIR:

- wire.json: protobuf encodings made by the `protobuf` package's own serializer (wrapper and
  descriptor messages) with the values they encode;
- tensors.onnx + tensors.json: one initializer per ONNX data type, each in raw_data and in the
  typed field, with the element values as `onnx.numpy_helper.to_array` reads them, and tensors
  whose payload does not match their dims (which `to_array` rejects);
- attributes.onnx + attributes.json: one node carrying every attribute kind and an omitted
  optional input, with the values as `onnx.helper.get_attribute_value` reads them;
- graph.onnx: an IR 3 graph (initializers listed as inputs), fixed/symbolic/unknown dims,
  unknown rank, scalars and every form of Constant;
- nested-8.onnx: Loop bodies nested 8 graphs deep (the `protobuf` package itself refuses to build
  much deeper ones, so the too-deep cases are hand-made in the Swift tests);
- external.onnx, segmented.onnx: a tensor with external data, one with a segment (unsupported);
- models.json: for graph.onnx and the three DFN3 graphs, what `onnx` reads: IR, opsets,
  producer, inputs/outputs (initializers excluded), op histogram, initializer and parameter
  counts, every node, and sample values of every initializer.

Floating-point values are written as hex bit patterns and integers as decimal strings, so that
no JSON number rounding can hide a difference.
"""
import collections
import json
import pathlib
import sys

import numpy as np
import onnx
from google.protobuf import descriptor_pb2, wrappers_pb2
from onnx import AttributeProto, TensorProto, external_data_helper, helper, numpy_helper

root = pathlib.Path(__file__).resolve().parent.parent
out = pathlib.Path(sys.argv[1])
rng = np.random.default_rng(20261130)


def write_json(name, value):
    (out / name).write_text(json.dumps(value, indent=1))


def hex_bits(array, bits_type):
    return ["%x" % v for v in np.asarray(array).reshape(-1).view(bits_type)]


def element_strings(array, data_type):
    """Elements of `array` (as to_array returns it) in the notation the Swift tests parse."""
    flat = np.asarray(array).reshape(-1)
    if data_type in (TensorProto.FLOAT, TensorProto.COMPLEX64):
        return hex_bits(flat.astype(np.complex64).view(np.float32) if data_type == TensorProto.COMPLEX64
                        else flat.astype(np.float32), np.uint32)
    if data_type in (TensorProto.DOUBLE, TensorProto.COMPLEX128):
        return hex_bits(flat.astype(np.complex128).view(np.float64) if data_type == TensorProto.COMPLEX128
                        else flat.astype(np.float64), np.uint64)
    if data_type == TensorProto.FLOAT16:
        return hex_bits(flat.astype(np.float16), np.uint16)
    if data_type == TensorProto.BFLOAT16:
        # to_array returns bfloat16 as float32 (or ml_dtypes); its upper 16 bits are the stored bits.
        return ["%x" % (v >> 16) for v in flat.astype(np.float32).view(np.uint32)]
    if data_type == TensorProto.STRING:
        return [(v.encode() if isinstance(v, str) else bytes(v)).hex() for v in flat]
    if data_type == TensorProto.BOOL:
        return ["1" if v else "0" for v in flat]
    return [str(int(v)) for v in flat]


def tensor_facts(tensor, with_values=True):
    facts = {"name": tensor.name, "data_type": tensor.data_type, "dims": [str(d) for d in tensor.dims],
             "storage": "raw" if tensor.HasField("raw_data") else "typed"}
    if with_values:
        facts["values"] = element_strings(numpy_helper.to_array(tensor), tensor.data_type)
    return facts


# ---------------------------------------------------------------- wire.json (protobuf package)

def scalar(kind, message, text):
    return {"kind": kind, "value": text, "hex": message.SerializeToString().hex()}


u64 = [0, 1, 127, 128, 150, 300, 16383, 16384, 2**32 - 1, 2**32, 2**35 + 7, 2**56, 2**63 - 1, 2**63, 2**64 - 1]
u64 += [int(v) for v in rng.integers(0, 2**64, size=24, dtype=np.uint64)]
i64 = [0, -1, 1, -2**63, 2**63 - 1, -300, -2**31] + [int(v) for v in rng.integers(-2**63, 2**63 - 1, size=16)]
i32 = [0, -1, 1, -2**31, 2**31 - 1, -150, 1000000]
floats = np.array([0.0, -0.0, 1.5, -3.25e-20, np.inf, -np.inf, np.nan, 1e-45, 3.4028235e38], dtype=np.float32)
doubles = np.array([0.0, -0.0, np.pi, -1e300, np.inf, np.nan, 5e-324], dtype=np.float64)
texts = ["", "testing", "naïve ✓", "x" * 200]
scalars = [scalar("uint64", wrappers_pb2.UInt64Value(value=v), str(v)) for v in u64]
scalars += [scalar("int64", wrappers_pb2.Int64Value(value=v), str(v)) for v in i64]
scalars += [scalar("int32", wrappers_pb2.Int32Value(value=v), str(v)) for v in i32]
scalars += [scalar("bool", wrappers_pb2.BoolValue(value=v), "1" if v else "0") for v in (False, True)]
scalars += [scalar("float", wrappers_pb2.FloatValue(value=float(v)), "%x" % b)
            for v, b in zip(floats, floats.view(np.uint32))]
scalars += [scalar("double", wrappers_pb2.DoubleValue(value=float(v)), "%x" % b)
            for v, b in zip(doubles, doubles.view(np.uint64))]
scalars += [scalar("string", wrappers_pb2.StringValue(value=t), t.encode().hex()) for t in texts]
scalars += [scalar("bytes", wrappers_pb2.BytesValue(value=bytes(b)), bytes(b).hex())
            for b in (b"", b"\x00\xff\x80", bytes(range(256)))]
path = [1, 300, -2, 0, 2**31 - 1, -2**31] + [int(v) for v in rng.integers(-2**31, 2**31 - 1, size=40)]
option = descriptor_pb2.UninterpretedOption(
    name=[descriptor_pb2.UninterpretedOption.NamePart(name_part="opt", is_extension=True)],
    identifier_value="ident", positive_int_value=2**64 - 5, negative_int_value=-42,
    double_value=-2.5, string_value=b"\x01\x02", aggregate_value="{a: 1}")
write_json("wire.json", {
    "scalars": scalars,
    # SourceCodeInfo.Location.path is `repeated int32 [packed = true]` (field 1).
    "packed_int32": {"values": [str(v) for v in path],
                     "hex": descriptor_pb2.SourceCodeInfo.Location(path=path).SerializeToString().hex()},
    # FileDescriptorProto.public_dependency is a proto2 `repeated int32`, unpacked (field 10).
    "unpacked_int32": {"values": [str(v) for v in path[:12]],
                       "hex": descriptor_pb2.FileDescriptorProto(name="f.proto", public_dependency=path[:12],
                                                                 package="p").SerializeToString().hex()},
    # Every wire type but groups; the test reads fields 3 and 4 and must skip the others.
    "uninterpreted_option": {"hex": option.SerializeToString().hex(), "positive_int_value": str(2**64 - 5),
                             "negative_int_value": "-42"},
})

# ---------------------------------------------------------------- tensors.onnx

samples = {
    TensorProto.FLOAT: np.array([0.0, -0.0, 1.5, np.inf, -np.inf, np.nan, 1e-45, -3.4028235e38, 0.1, -7.25, 1e10, 2.0],
                                dtype=np.float32),
    TensorProto.DOUBLE: np.array([0.0, -0.0, np.pi, np.inf, np.nan, 5e-324, -1e300, 1.0 / 3.0, 2.0, 3.0, 4.0, 5.0]),
    TensorProto.INT32: np.array([0, 1, -1, 2**31 - 1, -2**31, 7, 123456, -99, 5, 6, 8, 9], dtype=np.int32),
    TensorProto.INT64: np.array([0, 1, -1, 2**63 - 1, -2**63, 2**40, -2**33, 9, 10, 11, 12, 13], dtype=np.int64),
    TensorProto.INT16: np.array([0, 1, -1, 32767, -32768, 300, -300, 5, 6, 7, 8, 9], dtype=np.int16),
    TensorProto.INT8: np.array([0, 1, -1, 127, -128, 3, -3, 5, 6, 7, 8, 9], dtype=np.int8),
    TensorProto.UINT16: np.array([0, 1, 65535, 32768, 300, 2, 3, 4, 5, 6, 7, 8], dtype=np.uint16),
    TensorProto.UINT8: np.array([0, 1, 255, 128, 127, 2, 3, 4, 5, 6, 7, 8], dtype=np.uint8),
    TensorProto.UINT32: np.array([0, 1, 2**32 - 1, 2**31, 300, 2, 3, 4, 5, 6, 7, 8], dtype=np.uint32),
    TensorProto.UINT64: np.array([0, 1, 2**64 - 1, 2**63, 300, 2, 3, 4, 5, 6, 7, 8], dtype=np.uint64),
    TensorProto.BOOL: np.array([True, False, True, True, False, False, True, False, True, False, False, True]),
    TensorProto.FLOAT16: np.array([0.0, -0.0, 1.5, np.inf, -2.0, 65504.0, 6e-8, 0.1, 1, 2, 3, 4], dtype=np.float16),
    TensorProto.COMPLEX64: (np.arange(12) * (1.5 - 0.5j)).astype(np.complex64),
    TensorProto.COMPLEX128: (np.arange(12) * (0.1 + 2j)).astype(np.complex128),
    TensorProto.STRING: np.array([b"", b"a", b"\x00b", "naïve".encode()] * 3, dtype=object),
}
bfloat16_bits = np.array([0x0000, 0x8000, 0x3FC0, 0x7F80, 0xC000, 0x3DCD, 1, 2, 3, 4, 5, 6], dtype=np.uint16)
name_of = {v: k.lower() for k, v in TensorProto.DataType.items()}

tensors = []
for data_type, array in samples.items():
    name = name_of[data_type]
    shaped = array.reshape(3, 4)
    if data_type != TensorProto.STRING:  # strings have no raw form
        tensors.append(numpy_helper.from_array(shaped, name + "_raw"))  # from_array writes raw_data
    typed = list(shaped.reshape(-1))
    if data_type == TensorProto.FLOAT16:
        typed = [float(v) for v in shaped.reshape(-1)]
    tensors.append(helper.make_tensor(name + "_typed", data_type, [3, 4], typed, raw=False))
tensors.append(helper.make_tensor("bfloat16_raw", TensorProto.BFLOAT16, [3, 4], bfloat16_bits.tobytes(), raw=True))
bf_typed = TensorProto(name="bfloat16_typed", data_type=TensorProto.BFLOAT16, dims=[3, 4])
bf_typed.int32_data.extend(int(v) for v in bfloat16_bits)
tensors.append(bf_typed)
tensors.append(numpy_helper.from_array(np.array(2.5, dtype=np.float32), "float_scalar_raw"))
tensors.append(helper.make_tensor("int64_scalar_typed", TensorProto.INT64, [], [-5]))
tensors.append(helper.make_tensor("float_empty_typed", TensorProto.FLOAT, [0, 3], []))
tensors.append(numpy_helper.from_array(np.zeros((2, 0), dtype=np.int64), "int64_empty_raw"))
for t in tensors:
    assert t.HasField("raw_data") == t.name.endswith("_raw"), t.name

bad = [TensorProto(name="raw_too_short", data_type=TensorProto.FLOAT, dims=[2, 3], raw_data=b"\x00" * 20),
       TensorProto(name="raw_too_long", data_type=TensorProto.INT64, dims=[2], raw_data=b"\x00" * 24),
       TensorProto(name="typed_too_few", data_type=TensorProto.FLOAT, dims=[4], float_data=[1.0, 2.0, 3.0]),
       TensorProto(name="typed_too_many", data_type=TensorProto.INT32, dims=[1], int32_data=[1, 2]),
       TensorProto(name="no_payload", data_type=TensorProto.DOUBLE, dims=[3])]
bad_facts = []
for t in bad:
    try:
        numpy_helper.to_array(t)
    except Exception as error:  # the independent reader must reject it too
        bad_facts.append({**tensor_facts(t, with_values=False), "onnx_error": type(error).__name__ + ": " + str(error)})
        continue
    raise SystemExit(f"gen-onnx-fixtures: onnx accepted malformed tensor {t.name}")

graph = helper.make_graph([], "tensors", [], [helper.make_tensor_value_info("float_raw", TensorProto.FLOAT, [3, 4])],
                          initializer=tensors + bad)
model = helper.make_model(graph, producer_name="gen-onnx-fixtures", opset_imports=[helper.make_opsetid("", 17)])
onnx.save(model, out / "tensors.onnx")
write_json("tensors.json", {"tensors": [tensor_facts(t) for t in tensors], "bad_tensors": bad_facts})

# ---------------------------------------------------------------- attributes.onnx


def subgraph(name, op):
    return helper.make_graph([helper.make_node(op, ["a"], ["b"], name=name + "_node")], name,
                             [helper.make_tensor_value_info("a", TensorProto.FLOAT, ["N"])],
                             [helper.make_tensor_value_info("b", TensorProto.FLOAT, ["N"])])


small = numpy_helper.from_array(np.array([[1, -2, 3]], dtype=np.int64), "t_value")
node = helper.make_node(
    "AttributeZoo", ["x", "", "y", ""], ["z", ""], name="zoo",
    f=float(np.float32(-1.25e-3)), i=-2**40, s=b"bytes\x00\xff",
    t=small, g=subgraph("then", "Neg"),
    floats=[1.0, -0.5, float(np.float32(1e-30))], ints=[0, -1, 2**62, 5],
    strings=[b"a", b"", b"\xff\x00"],
    tensors=[small, helper.make_tensor("typed_floats", TensorProto.FLOAT, [2], [0.5, -4.0])],
    graphs=[subgraph("first", "Abs"), subgraph("second", "Relu")])
node.attribute.append(helper.make_attribute("no_ints", [], attr_type=AttributeProto.INTS))
node.attribute.append(helper.make_attribute("zero_f", 0.0))
graph = helper.make_graph([node], "attributes",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2]),
                           helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
                          [helper.make_tensor_value_info("z", TensorProto.FLOAT, [2])])
model = helper.make_model(graph, producer_name="gen-onnx-fixtures", opset_imports=[helper.make_opsetid("", 17)])
onnx.save(model, out / "attributes.onnx")
# Every fixture field in attributes.onnx precedes opset_import, so any truncation leaves either a
# broken field or a model without opset_import: both must be rejected.
assert [f.name for f, _ in model.ListFields()][-1] == "opset_import"


def attribute_facts(attribute):
    value = helper.get_attribute_value(attribute)
    kind = attribute.type
    if kind == AttributeProto.FLOAT:
        encoded = "%x" % np.float32(value).view(np.uint32)
    elif kind == AttributeProto.INT:
        encoded = str(value)
    elif kind == AttributeProto.STRING:
        encoded = value.hex()
    elif kind == AttributeProto.TENSOR:
        encoded = tensor_facts(value)
    elif kind == AttributeProto.GRAPH:
        encoded = graph_outline(value)
    elif kind == AttributeProto.FLOATS:
        encoded = hex_bits(np.array(value, dtype=np.float32), np.uint32)
    elif kind == AttributeProto.INTS:
        encoded = [str(v) for v in value]
    elif kind == AttributeProto.STRINGS:
        encoded = [v.hex() for v in value]
    elif kind == AttributeProto.TENSORS:
        encoded = [tensor_facts(v) for v in value]
    elif kind == AttributeProto.GRAPHS:
        encoded = [graph_outline(v) for v in value]
    else:
        raise SystemExit(f"gen-onnx-fixtures: no encoding for attribute type {kind}")
    return {"name": attribute.name, "type": AttributeProto.AttributeType.Name(kind).lower(), "value": encoded}


def graph_outline(graph):
    return {"name": graph.name, "ops": [n.op_type for n in graph.node],
            "inputs": [v.name for v in graph.input], "outputs": [v.name for v in graph.output]}


write_json("attributes.json", {"node": {"op_type": node.op_type, "name": node.name, "inputs": list(node.input),
                                        "outputs": list(node.output),
                                        "attributes": [attribute_facts(a) for a in node.attribute]}})

# ---------------------------------------------------------------- graph.onnx (IR 3, value infos, Constants)

weight = numpy_helper.from_array(rng.standard_normal((4, 3)).astype(np.float32), "weight")
bias = helper.make_tensor("bias", TensorProto.FLOAT, [4], [0.5, 1.0, 1.5, 2.0])
nodes = [
    helper.make_node("Constant", [], ["c_tensor"], value=numpy_helper.from_array(np.ones((2, 5), np.float32))),
    helper.make_node("Constant", [], ["c_float"], value_float=2.0),
    helper.make_node("Constant", [], ["c_floats"], value_floats=[1.0, 2.0, 3.0]),
    helper.make_node("Constant", [], ["c_int"], value_int=7),
    helper.make_node("Constant", [], ["c_ints"], value_ints=[1, 2, 3, 4, 5, 6]),
    helper.make_node("Gemm", ["x", "weight", "bias"], ["h"], transB=1),
    helper.make_node("Relu", ["h"], ["r"]),
    helper.make_node("Relu", ["r"], ["y"]),
]
inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3]),
          helper.make_tensor_value_info("weight", TensorProto.FLOAT, [4, 3]),
          helper.make_tensor_value_info("bias", TensorProto.FLOAT, [4]),
          helper.make_tensor_value_info("unknown_dim", TensorProto.INT64, [None, 2, "T"]),
          helper.make_tensor_value_info("unknown_rank", TensorProto.DOUBLE, None),
          helper.make_tensor_value_info("scalar", TensorProto.BOOL, [])]
graph = helper.make_graph(nodes, "graph", inputs, [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4])],
                          initializer=[weight, bias],
                          value_info=[helper.make_tensor_value_info("h", TensorProto.FLOAT, ["batch", 4])])
model = helper.make_model(graph, producer_name="gen-onnx-fixtures", producer_version="1.0",
                          opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("com.example", 1)])
model.ir_version = 3
onnx.save(model, out / "graph.onnx")

# ---------------------------------------------------------------- nested-N.onnx


def nested_model(depth):
    inner = subgraph("level0", "Identity")
    for level in range(1, depth):
        wrapper = helper.make_node("Loop", ["a"], ["b"], name=f"loop{level}", body=inner)
        inner = helper.make_graph([wrapper], f"level{level}", inner.input, inner.output)
    return helper.make_model(inner, producer_name="gen-onnx-fixtures", opset_imports=[helper.make_opsetid("", 17)])


onnx.save(nested_model(8), out / "nested-8.onnx")

# ---------------------------------------------------------------- unsupported storage

external = numpy_helper.from_array(np.arange(6, dtype=np.float32), "external")
external_data_helper.set_external_data(external, location="weights.bin", offset=0, length=24)
external.ClearField("raw_data")
external.data_location = TensorProto.EXTERNAL
segmented = numpy_helper.from_array(np.arange(6, dtype=np.float32), "segmented")
segmented.segment.begin, segmented.segment.end = 0, 6
for name, tensor in (("external", external), ("segmented", segmented)):
    graph = helper.make_graph([], name, [], [], initializer=[tensor])
    model = helper.make_model(graph, producer_name="gen-onnx-fixtures", opset_imports=[helper.make_opsetid("", 17)])
    (out / f"{name}.onnx").write_bytes(model.SerializeToString())

# ---------------------------------------------------------------- models.json


def dims_of(value_info):
    tensor_type = value_info.type.tensor_type
    if not tensor_type.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else d.dim_param if d.HasField("dim_param") else None
            for d in tensor_type.shape.dim]


def value_facts(value_info):
    return {"name": value_info.name, "type": name_of[value_info.type.tensor_type.elem_type], "shape": dims_of(value_info)}


def constant_elements(node):
    count = 0
    for attribute in node.attribute:
        value = helper.get_attribute_value(attribute)
        if attribute.name == "value":
            count += int(np.prod(value.dims, dtype=np.int64))
        elif attribute.name in ("value_float", "value_int"):
            count += 1
        elif attribute.name in ("value_floats", "value_ints"):
            count += len(value)
    return count


def initializer_sample(tensor):
    """Dims, type, the sum in float64 and 9 elements spread over the tensor, as onnx decodes them."""
    array = numpy_helper.to_array(tensor).reshape(-1)
    picks = sorted({int(i) for i in np.linspace(0, max(array.size - 1, 0), num=9)}) if array.size else []
    return {"name": tensor.name, "data_type": tensor.data_type, "dims": [str(d) for d in tensor.dims],
            "element_count": int(array.size), "sum": float(array.astype(np.float64).sum()),
            "sample_indices": picks, "sample_values": element_strings(array[picks], tensor.data_type)}


def model_facts(path):
    model = onnx.load(path)
    graph = model.graph
    initializer_names = {t.name for t in graph.initializer}
    parameters = sum(int(np.prod(t.dims, dtype=np.int64)) for t in graph.initializer)
    parameters += sum(constant_elements(n) for n in graph.node if n.op_type == "Constant" and n.domain == "")
    return {
        "ir_version": model.ir_version,
        "opset_import": [{"domain": o.domain, "version": o.version} for o in model.opset_import],
        "producer_name": model.producer_name, "producer_version": model.producer_version,
        "inputs": [value_facts(v) for v in graph.input if v.name not in initializer_names],
        "outputs": [value_facts(v) for v in graph.output],
        "value_info": [value_facts(v) for v in graph.value_info],
        "ops": dict(collections.Counter(n.op_type for n in graph.node)),
        "initializers": len(graph.initializer),
        "parameters": parameters,
        "nodes": [{"op_type": n.op_type, "name": n.name, "domain": n.domain, "inputs": list(n.input),
                   "outputs": list(n.output),
                   "attributes": [{"name": a.name, "type": AttributeProto.AttributeType.Name(a.type).lower()}
                                  for a in n.attribute]} for n in graph.node],
        "initializer_samples": [initializer_sample(t) for t in graph.initializer],
    }


models = {"graph.onnx": model_facts(out / "graph.onnx")}
for name in ("enc", "erb_dec", "df_dec"):
    models[f"{name}.onnx"] = model_facts(root / f"Models/DeepFilterNet3/{name}.onnx")
write_json("models.json", models)
