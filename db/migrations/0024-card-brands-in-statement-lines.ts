/**
 * Card brands in statement lines as people write them (issue 32). Until then a settlement wrote the
 * card's brand as the gateway names it, in lower case and without the mask: "Card payment visa 1111",
 * "Payment request (card visa 1111)", "Instalment 1 of PS-… (card visa 1111)"; since then the brand's
 * label and the masked number, "Card payment Visa •••• 1111" (`cardName`, `app/lib/card.ts`).
 * Lines of payments (type `payment`) that end in exactly that old form get the new one; anything
 * else (the business's own books, a line already rewritten) is left alone, so running it twice
 * changes nothing. The labels are `BRAND_LABELS`' own; amounts and dates do not change.
 */
export const name = "0024-card-brands-in-statement-lines";

export const up = /* sql */ String.raw`
UPDATE statement_lines AS sl
SET description = regexp_replace(
  sl.description,
  '^(Card payment|.* [(]card) ' || brands.brand || ' ([0-9]{4})([)]?)$',
  '\1 ' || brands.label || ' •••• \2\3'
)
FROM (
  VALUES
    ('visa', 'Visa'),
    ('mastercard', 'Mastercard'),
    ('amex', 'American Express'),
    ('diners', 'Diners Club'),
    ('jcb', 'JCB'),
    ('discover', 'Discover'),
    ('unionpay', 'UnionPay')
) AS brands (brand, label)
WHERE sl.type = 'payment'
  AND sl.description ~ ('^(Card payment|.* [(]card) ' || brands.brand || ' [0-9]{4}[)]?$');
`;
