import Synchronization

/// Copies of a graph's constant weights re-laid for the kernels that read them
/// (`PackedMatrixLayout`), made once per graph and shared by all of its plans (one-frame, chunked,
/// batched). They live in huge-page arenas like the weights themselves: a one-frame run streams
/// them from L3 every hop, where 4 KiB pages cost (see `ConstantArena`). An arena reserves
/// address space generously; only the pages the copies fill are ever backed.
final class RelaidWeights: Sendable {
    private struct Key: Hashable {
        let source: ObjectIdentifier
        let layout: PackedMatrixLayout
    }

    private struct Copy {
        /// Kept so that its storage, the key, cannot be freed and reused by another tensor.
        let source: Tensor
        let relaid: Tensor
    }

    private struct State {
        var copies: [Key: Copy] = [:]
        var arena: ConstantArena?
    }

    /// Address space reserved per arena (backed only where written).
    static let arenaBytes = 32 << 20

    private let state = Mutex(State())

    /// `tensor`, a run of float matrices each `layout.rows × layout.columns` and row-major,
    /// with every matrix packed by `layout`.
    func packed(_ tensor: Tensor, layout: PackedMatrixLayout) throws -> Tensor {
        let count = layout.rows * layout.columns
        guard tensor.elementType == .float32, count > 0, tensor.elementCount % count == 0 else {
            throw OperatorError("cannot re-lay \(tensor.elementType) \(tensor.shape) as \(layout.rows) × \(layout.columns) matrices")
        }
        let key = Key(source: ObjectIdentifier(tensor.storage), layout: layout)
        return try state.withLock { state in
            if let copy = state.copies[key] { return copy.relaid }
            let relaid = try Self.allocate(like: tensor, in: &state)
            let source = tensor.pointer(to: Float.self), destination = relaid.pointer(to: Float.self)
            layout.pack(matrices: source, count: tensor.elementCount, into: destination)
            state.copies[key] = Copy(source: tensor, relaid: relaid)
            return relaid
        }
    }

    /// A zeroed tensor shaped like `tensor`, from the current arena or a new one; an ordinary
    /// allocation when no arena can be mapped.
    private static func allocate(like tensor: Tensor, in state: inout State) throws -> Tensor {
        func place(in arena: ConstantArena?) -> Tensor? {
            guard let arena, let bytes = arena.allocate(byteCount: tensor.byteCount) else { return nil }
            return Tensor(elementType: tensor.elementType, shape: tensor.shape, elementCount: tensor.elementCount,
                          storage: TensorStorage(bytes: bytes, byteCount: tensor.byteCount, arena: arena))
        }
        if let placed = place(in: state.arena) { return placed }
        state.arena = ConstantArena(byteCount: max(tensor.byteCount, arenaBytes))
        return try place(in: state.arena) ?? Tensor(zeros: tensor.elementType, shape: tensor.shape)
    }
}
