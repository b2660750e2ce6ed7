import { parseSimpleMarkdown } from "~/lib/simple-markdown";

/**
 * Renders a legal document. The page has exactly one h1: the document's own first
 * level-1 heading if it has one, else `fallbackTitle`; later level-1 headings become h2.
 */
export function RichText({ source, fallbackTitle }: { source: string; fallbackTitle: string }) {
  const blocks = parseSimpleMarkdown(source);
  const first = blocks[0];
  const hasOwnTitle = first?.type === "heading" && first.level === 1;
  return (
    <article>
      {hasOwnTitle ? null : <h1>{fallbackTitle}</h1>}
      {blocks.map((block, index) => {
        switch (block.type) {
          case "heading": {
            if (block.level === 1 && index === 0) return <h1 key={index}>{block.text}</h1>;
            const Tag = block.level === 3 ? "h3" : "h2";
            return <Tag key={index}>{block.text}</Tag>;
          }
          case "list":
            return (
              <ul key={index}>
                {block.items.map((item, itemIndex) => (
                  <li key={itemIndex}>{item}</li>
                ))}
              </ul>
            );
          default:
            return <p key={index}>{block.text}</p>;
        }
      })}
    </article>
  );
}
