// Reads a multipart/form-data upload (busboy) into memory under hard limits, before anything is stored: a file
// over `maxFileBytes` or a body over `maxBodyBytes` is 413, more files or fields than allowed 413 too. The caller
// checks types and contents and stores everything in one transaction, so a refused upload leaves nothing behind.
import busboy from 'busboy';
import { AppError } from '../../errors/http-errors.js';
import type { AppContext } from '../context.js';

export interface UploadedFile {
  field: string;
  filename: string;
  mimeType: string;
  data: Buffer;
}
export interface Multipart {
  fields: Record<string, string>;
  files: UploadedFile[];
}
export interface MultipartLimits {
  maxFileBytes: number;
  maxBodyBytes: number;
  maxFiles: number;
  maxFields: number;
}

const tooLarge = (what: string) => new AppError(413, what);

/** A limit in the units people read (64 KB, 10 MB), with the exact bytes for agents. */
const sizeOf = (bytes: number) =>
  `${bytes < 1048576 ? `${+(bytes / 1024).toFixed(1)} KB` : `${+(bytes / 1048576).toFixed(1)} MB`} (${bytes} bytes)`;

export function readMultipart(ctx: AppContext, limits: MultipartLimits): Promise<Multipart> {
  // What was typed, in the form's order (a file as its field's name), for the page that shows a refusal
  // (form-reply.tsx), even when the file itself is refused.
  const typed: Record<string, string> = {};
  ctx.state.uploadFields = typed;
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limits.maxBodyBytes) return Promise.reject(tooLarge(`The upload is larger than ${sizeOf(limits.maxBodyBytes)}.`));
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: ctx.req.headers,
        limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: limits.maxFields, fieldSize: 64 * 1024 },
      });
    } catch {
      reject(new AppError(400, 'The multipart body has no boundary.'));
      return;
    }
    const out: Multipart = { fields: {}, files: [] };
    let failure: AppError | undefined;
    let received = 0;
    const fail = (err: AppError) => {
      failure ??= err;
    };
    bb.on('file', (field, stream, info) => {
      typed[field] ??= '';
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => {
        chunks.push(c);
      });
      stream.on('limit', () =>
        fail(tooLarge(`The file "${info.filename}" is larger than ${sizeOf(limits.maxFileBytes)}: choose a smaller file.`)),
      );
      stream.on('close', () => {
        out.files.push({ field, filename: info.filename ?? '', mimeType: info.mimeType, data: Buffer.concat(chunks) });
      });
    });
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(tooLarge(`The field "${name}" is too long.`));
      out.fields[name] = value;
      typed[name] = value;
    });
    bb.on('filesLimit', () => fail(tooLarge(`At most ${limits.maxFiles} file(s) per upload.`)));
    bb.on('fieldsLimit', () => fail(tooLarge(`At most ${limits.maxFields} fields per upload.`)));
    bb.on('error', () => reject(failure ?? new AppError(400, 'The multipart body is malformed.')));
    bb.on('close', () => (failure ? reject(failure) : resolve(out)));
    ctx.req.on('data', (c: Buffer) => {
      received += c.length;
      if (received > limits.maxBodyBytes) fail(tooLarge(`The upload is larger than ${sizeOf(limits.maxBodyBytes)}.`));
    });
    ctx.req.pipe(bb);
  });
}
