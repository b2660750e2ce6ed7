/**
 * The ProductFruits onboarding tour (spec §6): rendered only when the account's ProductFruit
 * toggle is on and holds a workspace code, with the contact's position as the role. The
 * queue is set up by a nonce'd inline script (CSP), with every value JSON-encoded and `<`
 * escaped so no value can close the script element.
 */
export const PRODUCT_FRUITS_ORIGIN = "https://app.productfruits.com";

export type ProductFruitsConfig = { workspaceCode: string; language: string; username: string; role: string };

export function ProductFruits({ config, nonce }: { config: ProductFruitsConfig; nonce: string }) {
  const init = ["init", config.workspaceCode, config.language, { username: config.username, role: config.role }];
  const queue = `window.$productFruits=window.$productFruits||[];window.$productFruits.push(${JSON.stringify(init).replace(/</g, "\\u003c")});`;
  return (
    <>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: queue }} />
      <script nonce={nonce} async src={`${PRODUCT_FRUITS_ORIGIN}/static/script.js`} />
    </>
  );
}
