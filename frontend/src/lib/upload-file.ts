/** A presigned upload as the API answers it (organizations' logos, releases' artifacts). */
export interface PresignedUpload {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
}

/** Why the file store refused an upload, in words; S3 answers XML with a <Message>. */
export const uploadRefusal = (status: number, body: string): string => {
  const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1]?.trim();
  const why = message ? `: ${message}` : '';
  if (status === 403) return `The file store refused the upload (the upload link may have expired)${why}`;
  return `The file store refused the upload (HTTP ${status})${why}`;
};

/**
 * PUTs a file to a presigned URL with XMLHttpRequest, because fetch() reports no upload progress. Sends exactly
 * the headers the URL was signed with; resolves when the store accepted every byte, rejects with a sentence.
 */
export const uploadFile = (
  upload: PresignedUpload,
  file: Blob,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('The upload was cancelled.'));
    const request = new XMLHttpRequest();
    request.open(upload.method, upload.url);
    for (const [name, value] of Object.entries(upload.headers)) {
      // The browser sets these itself and refuses scripts that try.
      if (/^(content-length|host)$/i.test(name)) continue;
      request.setRequestHeader(name, value);
    }
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(file.size, file.size);
        resolve();
      } else reject(new Error(uploadRefusal(request.status, request.responseText)));
    };
    request.onerror = () => reject(new Error('The upload failed: the file store could not be reached. Try again.'));
    request.ontimeout = () => reject(new Error('The upload took too long and was stopped. Try again.'));
    request.onabort = () => reject(new Error('The upload was cancelled.'));
    signal?.addEventListener('abort', () => request.abort());
    // A firmware image of 64 MB on a slow line takes minutes; a logo far less.
    request.timeout = 15 * 60_000;
    request.send(file);
  });
