/**
 * A model's id, which may break across lines only after a separator ("-", "/", "_", ":"), never
 * inside a word (styles.css: code.model-id): a narrow screen wraps "meta-llama/Llama-3.1-70B" at
 * its dashes and slash.
 */
export function ModelId({ id }: { id: string }) {
  const parts = id.split(/(?<=[-/_:])/);
  return <code class="model-id">{parts.map((part, i) => <>{i > 0 && <wbr />}{part}</>)}</code>;
}
