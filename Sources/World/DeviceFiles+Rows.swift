// The app's files as rows of its store (layer 3): what the invariants read, through the app's
// `FixReader`, to judge what is in the files.

extension DeviceFiles {
    /// The key of the row that holds the file at device path `path`: "file " and the path.
    public static func rowKey(ofPath path: String) -> String { rowKeyPrefix + path }
    /// What every file row's key starts with.
    package static let rowKeyPrefix = "file "

    /// The file at `path` was closed after a write: its row in `store` is replaced by one
    /// holding what it holds now. A hidden file (a name starting with ".", as the temporary
    /// file of an atomic write) is no row until it is renamed to a visible name.
    package func fileWritten(_ path: String, store: Store?) {
        let device = devicePath(of: path)
        guard let store, !Self.isHidden(device) else { return }
        replaceRow(ofPath: device, store: store)
        store.commit(immediately: true)
    }

    /// The file at `path` was removed: its row goes.
    package func fileRemoved(_ path: String, store: Store?) {
        let device = devicePath(of: path)
        protections[device] = nil
        guard let store, let row = mirroredRows.removeValue(forKey: device) else { return }
        store.delete(row)
        store.commit(immediately: true)
    }

    /// The file or folder at `from` was renamed `to`: the rows of the files it held follow
    /// (removed and made again from what is at `to`), and so do their classes.
    package func fileRenamed(from: String, to: String, store: Store?) {
        let source = devicePath(of: from)
        let destination = devicePath(of: to)
        moveProtections(from: source, to: destination)
        guard let store else { return }
        let moved = mirroredRows.keys.filter { $0 == source || $0.hasPrefix(source + "/") }
        for path in moved.sorted() {
            if let row = mirroredRows.removeValue(forKey: path) { store.delete(row) }
        }
        if !Self.isHidden(destination) {
            replaceRow(ofPath: destination, store: store)
            for path in moved.sorted() where path != source {
                replaceRow(ofPath: destination + path.dropFirst(source.count), store: store)
            }
        }
        store.commit(immediately: true)
    }

    /// Puts in `store`'s open transaction the deletion of the row of `path` (if any) and a row
    /// with the file's contents now (if it is a file).
    private func replaceRow(ofPath path: String, store: Store) {
        if let old = mirroredRows.removeValue(forKey: path) { store.delete(old) }
        guard let contents = privateContents(ofPath: path) else { return }
        let row = StoredRow(key: Self.rowKey(ofPath: path), text: Self.rowText(contents))
        mirroredRows[path] = row
        store.insert(row)
    }

    /// A file's bytes as a row's text: the text itself when it is UTF-8, else "base64:" and
    /// the bytes in Base64.
    static func rowText(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return "base64:" + Base64.encode(bytes)
    }

    private static func isHidden(_ path: String) -> Bool {
        path.split(separator: "/").last?.hasPrefix(".") ?? false
    }
}

/// Base64 (RFC 4648) without Foundation's `Data`, for `DeviceFiles.rowText`.
enum Base64 {
    private static let alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * offset) }
            for position in 0..<4 {
                if position <= chunk.count {
                    out.append(alphabet[Int((value >> (18 - 6 * position)) & 63)])
                } else {
                    out.append(UInt8(ascii: "="))
                }
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
