extension SortedResults {
    /// What the index keeps of one chunk beside the chunk object, in one 24-byte record: its
    /// block, the global index of its first result, how many results it holds and its handle.
    ///
    /// A lookup or an edit lands on a chunk picked at random among thousands; reading one
    /// record instead of an entry in each of several arrays, and not the chunk object (unless
    /// a column is boxed or the block must grow), saves a cache miss per array per changed
    /// result.
    struct ChunkRecord {
        /// The chunk's block (the same as the chunk's ``ResultsChunk/block``).
        var block: ResultsBlock
        /// The global index of the chunk's first result.
        var start: Int
        /// How many results the chunk holds.
        var count: Int32
        /// The chunk's handle.
        var handle: Int32

        /// The record of `chunk`, whose first result is at global index `start`.
        init(_ chunk: ResultsChunk, start: Int = 0) {
            block = chunk.block
            self.start = start
            count = Int32(chunk.count)
            handle = chunk.handle
        }
    }
}
