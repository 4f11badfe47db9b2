import Synchronization

/// Values folded while planning from weights alone (say an LSTM's weights sliced per gate and
/// concatenated again), kept once per graph so that every plan of it reads the same
/// tensors: kernels then treat them as weights, re-laid once (`RelaidWeights` keys its copies by
/// storage, so a per-plan folded copy would be re-laid, and kept, once per plan).
final class FoldedWeights: Sendable {
    private struct Key: Hashable {
        let value: Int
        let inputs: [ObjectIdentifier]
    }

    private struct Entry {
        /// Kept so that their storages, part of the key, cannot be freed and reused.
        let inputs: [Tensor]
        let folded: Tensor
    }

    private let entries = Mutex([Key: Entry]())

    /// The tensor first folded for `value` from `inputs` (weights): `folded` the first time.
    func canonical(_ folded: Tensor, value: Int, inputs: [Tensor]) -> Tensor {
        let key = Key(value: value, inputs: inputs.map { ObjectIdentifier($0.storage) })
        return entries.withLock { entries in
            if let entry = entries[key] { return entry.folded }
            entries[key] = Entry(inputs: inputs, folded: folded)
            return folded
        }
    }
}
