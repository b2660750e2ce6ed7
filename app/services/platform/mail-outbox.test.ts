import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { CompiledQuery } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSmtpCatcher, type SmtpCatcher } from "../../../tests/support/smtp-catcher";
import { createPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { fixedClock, setClockForTesting } from "./clock.server";
import { setDatabaseForTesting } from "./database.server";
import { openPostgres, type DatabaseHandle } from "./db.server";
import { resetEnvForTesting } from "./env.server";
import {
  deliverOutboxMessage,
  FALLBACK_DELAY_MS,
  kickMail,
  mailJobHandler,
  messageIdFor,
  openPayload,
  queueMail,
  SEND_TIMEOUT_MS,
  sendThroughOutbox,
  unsentMail,
} from "./mail-outbox.server";
import type { OutgoingMail } from "./mail.server";
import { migrate } from "./migrate.server";
import { jobIdFor, QUEUES } from "./queue.server";

/**
 * The mail outbox (decision 044) against a real SMTP server, on PGlite and on PostgreSQL: a
 * message exists exactly when its transaction commits, is delivered once whoever tries (the kick,
 * the job, a second process), survives a crash and a mail server that is down, and is never
 * stored in clear.
 */
let seq = 0;
const unique = (prefix: string) => `${prefix}:${Date.now().toString(36)}:${++seq}`;

const SECRET_LINK = "https://pay.acme.example/customer/payment-request/Zq8v3KxT0pLmNoPqRsTuVwXyZ012345";

function mailTo(to: string, subject = "Your payment request"): OutgoingMail {
  return {
    category: "non-contact",
    to,
    subject,
    text: `Pay here: ${SECRET_LINK}`,
    html: `<a href="${SECRET_LINK}">Pay</a>`,
  };
}

async function closedPort() {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function outboxSuite(
  open: () => Promise<{ handle: DatabaseHandle; second?: () => DatabaseHandle; close: () => Promise<void> }>,
) {
  let handle: DatabaseHandle;
  let second: (() => DatabaseHandle) | undefined;
  let close: () => Promise<void>;
  let catcher: SmtpCatcher;
  const saved = { SMTP_URL: process.env.SMTP_URL, DATA_DIR: process.env.DATA_DIR };
  const clock = fixedClock(new Date());

  const setSmtp = (url: string | undefined) => {
    if (url === undefined) delete process.env.SMTP_URL;
    else process.env.SMTP_URL = url;
    resetEnvForTesting();
  };
  const caught = (to: string) => catcher.messages.filter((m) => m.to.includes(to)).length;
  const rowOf = (id: string) =>
    handle.db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const queueCommitted = (key: string, mail: OutgoingMail) =>
    handle.db.transaction().execute((tx) => queueMail(tx, { key, mail }));

  beforeAll(async () => {
    catcher = await startSmtpCatcher();
    ({ handle, second, close } = await open());
    setDatabaseForTesting(handle);
    setClockForTesting(clock);
  });
  beforeEach(() => setSmtp(catcher.smtpUrl));
  afterEach(() => clock.set(new Date()));
  afterAll(async () => {
    setClockForTesting(undefined);
    setDatabaseForTesting(undefined);
    await close();
    await catcher.close();
    setSmtp(saved.SMTP_URL);
  });

  it("stores no files: a message with attachments is refused, and files are made only when a message is sent", async () => {
    const key = unique("files");
    const withFile = {
      ...mailTo("files@example.com"),
      attachments: [
        { filename: "Receipt.pdf", contentType: "application/pdf" as const, content: Buffer.from("%PDF-") },
      ],
    };
    await expect(queueCommitted(key, withFile)).rejects.toThrow(/carries no attachments/);
    expect(await handle.db.selectFrom("mail_outbox").select("id").where("key", "=", key).execute()).toEqual([]);
  });

  it("delivers at once after commit, with the Message-ID of its key, and keeps nothing of it once sent", async () => {
    const key = unique("receipt");
    const to = `${seq}.kick@example.com`;
    const queued = await queueCommitted(key, mailTo(to));
    expect(queued.created).toBe(true);
    expect(await kickMail([queued.id])).toMatchObject([{ outcome: "sent" }]);
    const mail = await catcher.waitForMail(to);
    expect(mail.messageId).toBe(messageIdFor(key));
    expect(mail.links).toEqual([SECRET_LINK]);
    const row = await rowOf(queued.id);
    expect(row).toMatchObject({ status: "sent", payload: null, attempts: 1, recipient: to, claim_token: null });
    // A second kick, and the fallback job when it comes: nothing more.
    expect(await kickMail([queued.id])).toEqual([{ outcome: "done" }]);
    expect(await mailJobHandler({ id: "job", data: { outboxId: queued.id } })).toBe("done");
    expect(caught(to)).toBe(1);
  });

  it("stores the message sealed: no link secret or subject in clear, bound to its key", async () => {
    const key = unique("payment-request");
    const queued = await queueCommitted(key, mailTo(`${seq}.sealed@example.com`, "Secret subject line"));
    const row = await rowOf(queued.id);
    const everything = JSON.stringify(row);
    expect(everything).not.toContain("Zq8v3KxT0pLmNoPqRsTuVwXyZ012345");
    expect(everything).not.toContain("Secret subject line");
    expect(row.payload).toMatch(/^v1\.[\w-]+$/);
    expect(openPayload(key, row.payload!)).toMatchObject({ kind: "mail", mail: { text: `Pay here: ${SECRET_LINK}` } });
    // Moved to another row's key, it does not open (AES-GCM's associated data).
    expect(() => openPayload(`${key}x`, row.payload!)).toThrow();
    // Nor does the pg-boss job hold it: only the outbox row's id.
    const job = await handle.db.executeQuery<{ data: unknown }>(
      CompiledQuery.raw("SELECT data FROM pgboss.job WHERE id = $1", [jobIdFor(QUEUES.mail, key)]),
    );
    expect(job.rows).toEqual([{ data: { outboxId: queued.id } }]);
    await kickMail([queued.id]);
  });

  it("writes one message for one key, however often the cause writes it", async () => {
    const key = unique("receipt");
    const to = `${seq}.twice@example.com`;
    const first = await queueCommitted(key, mailTo(to));
    const again = await queueCommitted(key, mailTo(to, "A second render"));
    expect(again).toMatchObject({ id: first.id, created: false });
    await kickMail([first.id, again.id]);
    await catcher.waitForMail(to);
    const rows = await handle.db.selectFrom("mail_outbox").select("id").where("key", "=", key).execute();
    expect(rows).toHaveLength(1);
    const jobs = await handle.db.executeQuery<{ n: number }>(
      CompiledQuery.raw("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'mail' AND data->>'outboxId' = $1", [
        first.id,
      ]),
    );
    expect(jobs.rows[0]!.n).toBe(1);
    expect(caught(to)).toBe(1);
    expect(catcher.messages.find((m) => m.to.includes(to))!.subject).toBe("Your payment request");
  });

  it("writes nothing when the transaction of its cause rolls back", async () => {
    const key = unique("receipt");
    await expect(
      handle.db.transaction().execute(async (tx) => {
        await queueMail(tx, { key, mail: mailTo(`${seq}.rollback@example.com`) });
        throw new Error("the payment did not commit");
      }),
    ).rejects.toThrow("the payment did not commit");
    expect(await handle.db.selectFrom("mail_outbox").select("id").where("key", "=", key).execute()).toEqual([]);
    const jobs = await handle.db.executeQuery(
      CompiledQuery.raw("SELECT id FROM pgboss.job WHERE id = $1", [jobIdFor(QUEUES.mail, key)]),
    );
    expect(jobs.rows).toEqual([]);
  });

  it("refuses a message with an unsafe header in the cause's transaction, which then writes nothing", async () => {
    const key = unique("bad");
    await expect(
      handle.db
        .transaction()
        .execute((tx) =>
          queueMail(tx, { key, mail: { ...mailTo("a@example.com"), subject: "Hi\r\nBcc: x@example.com" } }),
        ),
    ).rejects.toThrow(/subject/);
    expect(await handle.db.selectFrom("mail_outbox").select("id").where("key", "=", key).execute()).toEqual([]);
  });

  it("crash between commit and send: the job sends it on restart, exactly once", async () => {
    const key = unique("receipt");
    const to = `${seq}.crash@example.com`;
    // The process committed the payment and its receipt, then died before the kick.
    const queued = await queueCommitted(key, mailTo(to));
    const job = await handle.db.executeQuery<{ data: { outboxId: string }; due_ms: number }>(
      CompiledQuery.raw(
        "SELECT data, (extract(epoch FROM start_after) * 1000)::bigint AS due_ms FROM pgboss.job WHERE name = 'mail' AND id = $1",
        [jobIdFor(QUEUES.mail, key)],
      ),
    );
    expect(job.rows).toHaveLength(1);
    // Due after the kick would have sent it.
    expect(Number(job.rows[0]!.due_ms)).toBeGreaterThanOrEqual(clock().getTime() + FALLBACK_DELAY_MS - 1_000);
    expect(await unsentMail(handle.db)).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: queued.id, status: "pending" })]),
    );
    // After the restart, a worker runs the job — and pg-boss may run it again (a retry): once.
    expect(await mailJobHandler({ id: "job", data: job.rows[0]!.data })).toBe("sent");
    expect(await mailJobHandler({ id: "job", data: job.rows[0]!.data })).toBe("done");
    await catcher.waitForMail(to);
    expect(caught(to)).toBe(1);
  });

  it("a sender that died mid-send: its claim is taken again only once it is stale", async () => {
    const key = unique("receipt");
    const to = `${seq}.died@example.com`;
    const queued = await queueCommitted(key, mailTo(to));
    // Claimed by a sender that then died (the claim as deliverOutboxMessage writes it).
    await handle.db
      .updateTable("mail_outbox")
      .set({ status: "sending", claim_token: "00000000-0000-4000-8000-000000000001", claimed_at: clock() })
      .where("id", "=", queued.id)
      .execute();
    expect(await deliverOutboxMessage(queued.id)).toEqual({ outcome: "busy" });
    await expect(mailJobHandler({ id: "job", data: { outboxId: queued.id } })).rejects.toThrow(/another sender/);
    clock.set(new Date(clock().getTime() + SEND_TIMEOUT_MS + 1_000));
    expect(await mailJobHandler({ id: "job", data: { outboxId: queued.id } })).toBe("sent");
    await catcher.waitForMail(to);
    // The dead sender's late mark would match no row: its claim token is gone.
    const row = await rowOf(queued.id);
    expect(row).toMatchObject({ status: "sent", attempts: 1, claim_token: null });
    expect(caught(to)).toBe(1);
  });

  it("SMTP down: kept and retried later, then delivered once", async () => {
    const to = `${seq}.down@example.com`;
    setSmtp(`smtp://127.0.0.1:${await closedPort()}`);
    const key = unique("receipt");
    const queued = await queueCommitted(key, mailTo(to));
    expect(await kickMail([queued.id])).toMatchObject([{ outcome: "failed" }]);
    expect(await rowOf(queued.id)).toMatchObject({ status: "pending", attempts: 1, claim_token: null });
    expect((await rowOf(queued.id)).last_error).toMatch(/ECONNREFUSED/);
    // The job's first try: still down, so it fails and pg-boss retries it later.
    await expect(mailJobHandler({ id: "job", data: { outboxId: queued.id } })).rejects.toThrow();
    // The own-transaction path says so too, and keeps the message.
    await expect(sendThroughOutbox(mailTo(to), { key: unique("form") })).rejects.toThrow();
    setSmtp(catcher.smtpUrl);
    expect(await mailJobHandler({ id: "job", data: { outboxId: queued.id } })).toBe("sent");
    expect(await mailJobHandler({ id: "job", data: { outboxId: queued.id } })).toBe("done");
    const row = await rowOf(queued.id);
    expect(row).toMatchObject({ status: "sent", attempts: 3, last_error: null, payload: null });
    expect(catcher.messages.filter((m) => m.to.includes(to) && m.messageId === messageIdFor(key))).toHaveLength(1);
  });

  it("two senders racing for the same messages: each is delivered once", async () => {
    const other = second?.() ?? handle;
    const to = `${seq}.race@example.com`;
    const ids: string[] = [];
    for (let n = 0; n < 8; n++) ids.push((await queueCommitted(unique("race"), mailTo(to, `Race ${n}`))).id);
    const outcomes = await Promise.all(
      ids.flatMap((id) => [
        deliverOutboxMessage(id, { db: handle.db }).then((delivery) => delivery.outcome),
        deliverOutboxMessage(id, { db: other.db }).then((delivery) => delivery.outcome),
        mailJobHandler({ id: "job", data: { outboxId: id } }).then(String, () => "busy"),
      ]),
    );
    expect(outcomes.filter((o) => o === "sent")).toHaveLength(ids.length);
    await expect.poll(() => caught(to), { timeout: 10_000 }).toBe(ids.length);
    expect(new Set(catcher.messages.filter((m) => m.to.includes(to)).map((m) => m.subject)).size).toBe(ids.length);
  });

  it("without SMTP_URL, writes the message to DATA_DIR/outbox, once", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-outbox-test-"));
    process.env.DATA_DIR = dataDir;
    setSmtp(undefined);
    try {
      const key = unique("form");
      const sent = await sendThroughOutbox(mailTo("file@example.com"), { key });
      expect(sent).toEqual({ messageId: messageIdFor(key), transport: "outbox" });
      await sendThroughOutbox(mailTo("file@example.com"), { key });
      const files = fs.readdirSync(path.join(dataDir, "outbox"));
      expect(files).toHaveLength(1);
      expect(fs.readFileSync(path.join(dataDir, "outbox", files[0]!), "utf8")).toContain(
        `Message-ID: ${messageIdFor(key)}`,
      );
    } finally {
      if (saved.DATA_DIR === undefined) delete process.env.DATA_DIR;
      else process.env.DATA_DIR = saved.DATA_DIR;
      resetEnvForTesting();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

describe("the mail outbox on PGlite", () => {
  outboxSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("the mail outbox on PostgreSQL (TEST_DATABASE_URL)", () => {
  outboxSuite(async () => {
    const { handle, url, drop } = await createPostgresDatabase();
    await migrate(handle);
    const others: DatabaseHandle[] = [];
    return {
      handle,
      // A second process: its own pool.
      second: () => {
        const other = openPostgres(url, { max: 2 });
        others.push(other);
        return other;
      },
      close: async () => {
        await Promise.all(others.map((other) => other.close()));
        await drop();
      },
    };
  });
});
