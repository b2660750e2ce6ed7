import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { logger } from "../platform/logger.server";

/**
 * Packs a PDF's objects into compressed object streams (PDF 1.5) on a worker thread (issue 34). pdfkit
 * writes each of a tagged table's thousands of structure elements as a plain-text object, 70% of a
 * 1,000-line statement's bytes; packed 500 to a stream they compress to a tenth (650 KB to 182 KB), and
 * nothing in them changes. @cantoo/pdf-lib (already the credit documents' parser) reads the file and
 * writes it again: 150–300 ms of work for a long statement, with stretches of 35–70 ms it never
 * interrupts (its writer visits every object in one loop). On the request's own thread that would hold
 * every other request up; on the worker it holds up nothing.
 *
 * One worker per process, started on the first document and kept (unref'd: it never keeps the process
 * alive). The files go to it and back as transferred buffers, in order. A worker that dies fails what it
 * was packing and is started again for the next.
 */
const require = createRequire(import.meta.url);

/** The worker's whole program: plain JavaScript, so it needs none of the portal's build. */
const PROGRAM = `
const { parentPort, workerData } = require("node:worker_threads");
const { PDFDocument, PDFStreamWriter } = require(workerData.pdfLib);
parentPort.on("message", async ({ id, bytes }) => {
  try {
    const document = await PDFDocument.load(new Uint8Array(bytes), { updateMetadata: false, parseSpeed: Infinity });
    const packed = await PDFStreamWriter.forContext(document.context, Infinity, true, 500).serializeToBuffer();
    parentPort.postMessage({ id, packed: packed.buffer }, [packed.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

type Pending = { resolve: (bytes: Buffer) => void; reject: (error: Error) => void };

let worker: Worker | null = null;
const pending = new Map<number, Pending>();
let nextId = 0;

function startWorker(): Worker {
  const started = new Worker(PROGRAM, {
    eval: true,
    workerData: { pdfLib: require.resolve("@cantoo/pdf-lib") },
  });
  started.unref();
  started.on("message", (message: { id: number; packed?: ArrayBuffer; error?: string }) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.packed) waiting.resolve(Buffer.from(message.packed));
    else waiting.reject(new Error(`PDF packing failed: ${message.error ?? "unknown"}`));
  });
  const fail = (error: Error) => {
    if (worker === started) worker = null;
    for (const [id, waiting] of pending) {
      pending.delete(id);
      waiting.reject(error);
    }
  };
  started.on("error", (error) => {
    logger.error("the PDF packer stopped", { error });
    fail(error);
  });
  started.on("exit", (code) => fail(new Error(`the PDF packer exited (${code})`)));
  return started;
}

export function packObjects(bytes: Buffer): Promise<Buffer> {
  worker ??= startWorker();
  const id = ++nextId;
  const running = worker;
  return new Promise<Buffer>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    // A copy of its own to hand over: the caller's buffer may be a slice of a larger one.
    const copy = new Uint8Array(bytes).buffer;
    running.postMessage({ id, bytes: copy }, [copy]);
  });
}
