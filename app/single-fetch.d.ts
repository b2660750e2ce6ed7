// Single fetch (v3_singleFetch) typing for loaders and actions that return `data()`.
import "@remix-run/node";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}
