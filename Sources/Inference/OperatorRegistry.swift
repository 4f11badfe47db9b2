import ONNX

/// Maps an ONNX node to the operator that implements it, parsing its attributes for `opset`.
enum OperatorRegistry {
    /// The operator for the node `attributes` belongs to, or nil when its op type is not implemented.
    static func makeOperator(_ attributes: NodeAttributes, opset: Int) throws -> (any Operator)? {
        switch attributes.node.opType {
        case "Constant": return try Constant(attributes)
        case "ConstantOfShape": return try ConstantOfShape(attributes)
        case "Shape": return try Shape(attributes, opset: opset)
        case "Size": return Size()
        case "Identity": return Identity()
        case "Reshape": return try Reshape(attributes, opset: opset)
        case "Flatten": return try Flatten(attributes)
        case "Squeeze": return try Squeeze(attributes, opset: opset)
        case "Unsqueeze": return try Unsqueeze(attributes, opset: opset)
        case "Gather": return try Gather(attributes)
        case "Concat": return try Concat(attributes)
        case "Slice": return try Slice(attributes, opset: opset)
        case "Transpose": return try Transpose(attributes)
        case "Cast": return try Cast(attributes)
        case "Pad": return try Pad(attributes, opset: opset)
        case "Add": return ElementwiseBinary<Addition>()
        case "Sub": return ElementwiseBinary<Subtraction>()
        case "Mul": return ElementwiseBinary<Multiplication>()
        case "Div": return ElementwiseBinary<Division>()
        case "Pow": return Pow()
        case "Max": return Max()
        case "Clip": return try Clip(attributes, opset: opset)
        case "Equal": return Equal()
        case "Not": return Not()
        case "Relu": return UnaryActivation(.relu)
        case "Sigmoid": return UnaryActivation(.sigmoid)
        case "Tanh": return UnaryActivation(.tanh)
        case "LeakyRelu": return UnaryActivation(.leakyRelu(alpha: try attributes.float("alpha", default: 0.01)))
        case "PRelu": return PRelu()
        case "Log": return UnaryMath(.naturalLogarithm)
        case "Sqrt": return UnaryMath(.squareRoot)
        case "MatMul": return MatMul()
        case "Gemm": return try Gemm(attributes)
        case "Einsum": return try Einsum(attributes)
        case "Conv": return try Conv(attributes)
        case "ConvTranspose": return try ConvTranspose(attributes)
        case "GRU": return try GRU(attributes, opset: opset)
        case "If": return try If(attributes)
        case "LSTM": return try LSTM(attributes, opset: opset)
        case "Split": return try Split(attributes, opset: opset)
        case "ReduceMean": return try Reduction<MeanReduction>(attributes, opset: opset)
        case "ReduceMax": return try Reduction<MaximumReduction>(attributes, opset: opset)
        case "ScatterND": return try ScatterND(attributes)
        case "MaxPool": return try MaxPool(attributes)
        case "BatchNormalization": return try BatchNormalization(attributes, opset: opset)
        default: return nil
        }
    }
}
