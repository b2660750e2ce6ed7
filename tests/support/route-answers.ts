import { expect } from "vitest";
import { readPdf } from "./pdf-reader";

/**
 * What a loader answered, as the route tests read it: its status, whether it returned or threw a Response,
 * threw a `data(…, { status })` (the pages' "not found"), or returned a page's data (200).
 */
export function statusOf(answer: unknown): number {
  if (answer instanceof Response) return answer.status;
  const wrapped = answer as { type?: string; init?: ResponseInit | null } | null;
  return wrapped?.type === "DataWithResponseInit" ? (wrapped.init?.status ?? 200) : 200;
}

/** A loader's answer that must be a PDF: a 200 Response, its bytes read back as a reader does. */
export async function pdfOf(answer: unknown) {
  expect(answer).toBeInstanceOf(Response);
  const response = answer as Response;
  expect(response.status).toBe(200);
  return { response, pdf: await readPdf(new Uint8Array(await response.arrayBuffer())) };
}
