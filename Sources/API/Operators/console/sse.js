// Server-sent events read from a fetch response: EventSource cannot send the Authorization
// header the admin routes need, so the console parses the stream itself (WHATWG's rules:
// blank line ends a message; `:` starts a comment; `id`, `event`, `data` fields).

/** Yields `{ id, event, data, comments }` for each message of `response`'s body. */
export async function* messages(response) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      yield parse(block);
    }
  }
}

function parse(block) {
  const message = { id: null, event: "message", data: [], comments: [] };
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) {
      message.comments.push(line.slice(1).trim());
      continue;
    }
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "id") message.id = value;
    else if (field === "event") message.event = value;
    else if (field === "data") message.data.push(value);
  }
  message.data = message.data.join("\n");
  return message;
}
