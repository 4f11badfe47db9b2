extension GRUKernel {
    /// Where each part of the scratch lives; see the comment in `init`.
    struct ScratchLayout {
        let gateBias: UnsafeMutablePointer<Float>
        let resetGatedBias: UnsafeMutablePointer<Float>
        let recurrent: UnsafeMutablePointer<Float>
        let resetHidden: UnsafeMutablePointer<Float>
        /// `.columns` only: R's padded columns (column j's gate g at (3j + g) · 8), then W's, then
        /// the padded biases of z, r and n (Wb + Rb, Wb + Rb, Wb_h) and of the gated Rb_h.
        let columns: UnsafeMutablePointer<Float>
        let inputColumns: UnsafeMutablePointer<Float>
        let paddedBiases: UnsafeMutablePointer<Float>
        let projections: UnsafeMutablePointer<Float>
        /// Floats from one row's x·Wᵀ to the next's: 3H, or three padded vectors (`.columns`).
        let projectionWidth: Int

        init(kernel: GRUKernel, scratch: UnsafeMutablePointer<Float>) {
            let hidden = kernel.hiddenSize
            gateBias = scratch
            resetGatedBias = gateBias + 3 * hidden
            recurrent = resetGatedBias + hidden
            resetHidden = recurrent + kernel.batchSize * 3 * hidden
            columns = resetHidden + kernel.batchSize * hidden
            inputColumns = columns + 3 * hidden * 8
            paddedBiases = inputColumns + 3 * kernel.inputSize * 8
            let columnStep = kernel.recurrenceStep == .columns
            projections = columnStep ? paddedBiases + 4 * 8 : columns
            projectionWidth = columnStep ? 24 : 3 * hidden
        }
    }

    /// gateBias = [Wb_z + Rb_z, Wb_r + Rb_r, Wb_h (+ Rb_h unless linearBeforeReset)];
    /// resetGatedBias = Rb_h when linearBeforeReset (it sits inside r ⊙ (…)), else 0.
    func prepareBiases(
        inputBias: UnsafePointer<Float>?, recurrentBias: UnsafePointer<Float>?, layout: ScratchLayout
    ) {
        let hidden = hiddenSize
        layout.gateBias.updateOrClear(from: inputBias, count: 3 * hidden)
        layout.resetGatedBias.update(repeating: 0, count: hidden)
        guard let recurrentBias else { return }
        let summed = linearBeforeReset ? 2 * hidden : 3 * hidden
        for index in 0..<summed { layout.gateBias[index] += recurrentBias[index] }
        if linearBeforeReset {
            layout.resetGatedBias.update(from: recurrentBias + 2 * hidden, count: hidden)
        }
    }
}
