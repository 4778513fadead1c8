// `URLSession`'s data tasks with Apple's names (layer 4): a fetch (`GET`) of the server's
// resource, or an upload whose body is the request's `httpBody`, each the process's own
// request (R-D13), ended by the server's answer (R-N40–R-N45) or a network failure.
import Foundation
import Simulation
import World

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// `dataTask(with:completionHandler:)` for a request: a `GET` (or no method) without a body
    /// fetches the server's resource at the URL's path (`WorldConfiguration.serverResources`,
    /// R-N45: 200 with its body, 404 without one); a request whose `httpBody` the storage seam
    /// made (`SimulatedUploadBody.data(for:)`) uploads its batch, whatever its method. Its end
    /// goes to `completionHandler`: `data` is the body the server sent, whatever its status
    /// (nil only when no answer came), with the `HTTPURLResponse` and no error, or nil, nil and
    /// the `URLError`. A standard session's task (R-D13); a background session refuses data
    /// tasks with a completion handler, as Apple's does.
    public func dataTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDataTask {
        precondition(
            configuration.identifier == nil,
            "dataTask(with:completionHandler:) is not supported in a background session: use "
                + "uploadTask(with:fromFile:) there")
        let task = makeStandardTask(
            { URLSessionDataTask(taskIdentifier: $0, request: request, start: nil) },
            sending: Self.sender(for: request))
        task.completionHandler = completionHandler
        return task
    }

    /// `dataTask(with:completionHandler:)` for a URL: a fetch of its path (R-N45).
    public func dataTask(
        with url: URL,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDataTask {
        dataTask(with: URLRequest(url: url), completionHandler: completionHandler)
    }

    /// `data(for:delegate:) async throws`: the data task of `request`, resumed at once; returns
    /// the body and the response once the server answered, whatever its status (check the
    /// `HTTPURLResponse`'s `statusCode`), and throws the `URLError` when no answer came. The
    /// delegate is ignored. It runs on the caller's actor (`nonisolated(nonsending)`); if the
    /// process ends first the task waits forever, as the process's other tasks do. Outside a
    /// simulated process it throws `URLError(.cancelled)`: a detached session runs nothing.
    nonisolated(nonsending) public func data(
        for request: URLRequest, delegate: (any URLSessionTaskDelegate)? = nil
    ) async throws -> (Data, URLResponse) {
        guard ProcessScope.current != nil else { throw URLError(.cancelled) }
        return try await withUnsafeThrowingContinuation {
            (continuation: UnsafeContinuation<(Data, URLResponse), any Error>) in
            let task = dataTask(with: request) { data, response, error in
                if let data, let response {
                    continuation.resume(returning: (data, response))
                } else {
                    continuation.resume(throwing: error ?? URLError(.unknown))
                }
            }
            task.resume()
        }
    }

    /// `data(from:delegate:) async throws`: `data(for:)` of a fetch of `url`'s path.
    nonisolated(nonsending) public func data(
        from url: URL, delegate: (any URLSessionTaskDelegate)? = nil
    ) async throws -> (Data, URLResponse) {
        try await data(for: URLRequest(url: url), delegate: delegate)
    }

    /// What a data task of `request` hands the world at `resume()`: an upload of the batch its
    /// body stands for, or a fetch of its path. Any other request is refused, naming the
    /// supported forms: the world cannot tell what an arbitrary body holds.
    private static func sender(for request: URLRequest)
        -> (UploadSession, VirtualDuration) -> UploadTaskID
    {
        let method = request.httpMethod ?? "GET"
        if let body = request.httpBody {
            let name = String(decoding: body, as: UTF8.self)
            guard let batch = ProcessScope.current.map({ $0.uploadBody(name) }) else {
                return { uploads, delay in uploads.fetchTask(path: "", earliestBeginAfter: delay) }
            }
            guard let batch else {
                preconditionFailure(
                    "the httpBody of a data task was not made by SimulatedUploadBody.data(for:) "
                        + "in this process: the simulated server stores batches of rows only")
            }
            return { uploads, delay in uploads.uploadTask(with: batch, earliestBeginAfter: delay) }
        }
        precondition(
            method == "GET",
            "a \(method) data task without an httpBody is not modelled: send a GET, or a body "
                + "made by SimulatedUploadBody.data(for:)")
        let path = request.url?.path ?? ""
        return { uploads, delay in uploads.fetchTask(path: path, earliestBeginAfter: delay) }
    }
}
