/**
 * Where an instalment's money goes (decision 034): the schedule's invoices, oldest due first (ties
 * by id, the order the engine locks them in), each up to what it still owes free of other
 * payments in flight; whatever no invoice can take is credit on the account. Pure: the engine calls
 * it under the invoices' locks.
 */
export type AllocationInvoice = { id: string; dueDate: string; availableCents: number };

export type InstalmentAllocation = {
  allocations: { invoiceId: string; amountCents: number; balanceBeforeCents: number }[];
  creditCents: number;
};

export function allocateInstalment(
  amountCents: number,
  invoices: readonly (AllocationInvoice & { balanceCents: number })[],
): InstalmentAllocation {
  if (!Number.isSafeInteger(amountCents) || amountCents < 1) throw new RangeError("amountCents");
  const ordered = [...invoices].sort((a, b) =>
    a.dueDate !== b.dueDate ? (a.dueDate < b.dueDate ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
  let left = amountCents;
  const allocations: InstalmentAllocation["allocations"] = [];
  for (const invoice of ordered) {
    if (left === 0) break;
    const room = Math.min(invoice.availableCents, invoice.balanceCents);
    if (!Number.isSafeInteger(room) || room <= 0) continue;
    const take = Math.min(room, left);
    allocations.push({ invoiceId: invoice.id, amountCents: take, balanceBeforeCents: invoice.balanceCents });
    left -= take;
  }
  return { allocations, creditCents: left };
}
