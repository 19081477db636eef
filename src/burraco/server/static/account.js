// The account page's passkeys (docs/accounts.md "Passkeys"): sign up, sign in and add a passkey with WebAuthn.
// The server makes the options and checks the answers (server/passkeys.py); this file only carries them between
// the page, the browser's authenticator and the server, in base64url where the server writes JSON.

const b64 = {
  decode(s) {
    const pad = "=".repeat((4 - (s.length % 4)) % 4);
    const bin = atob((s + pad).replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0)).buffer;
  },
  encode(buf) {
    let bin = "";
    for (const b of new Uint8Array(buf)) bin += String.fromCharCode(b);
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  },
};

function csrf() {
  const input = document.querySelector('input[name="csrf"]');
  return input ? input.value : "";
}

function say(text) {
  const out = document.getElementById("passkey-status");
  if (out) out.textContent = text;
}

// the page's language (its refusals come back in it, and the page opens again in it)
const lang = document.documentElement.lang || "en";

async function post(step, body) {
  const r = await fetch(`/account/passkey/${step}?lang=${encodeURIComponent(lang)}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
    body: JSON.stringify(body),
  });
  const answer = await r.json();
  if (!r.ok) throw new Error(answer.message || `HTTP ${r.status}`);
  return answer;
}

function answerJSON(c) {
  const r = c.response;
  const response = { clientDataJSON: b64.encode(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = b64.encode(r.attestationObject);
    if (r.getTransports) response.transports = r.getTransports();
  } else {
    response.authenticatorData = b64.encode(r.authenticatorData);
    response.signature = b64.encode(r.signature);
    if (r.userHandle) response.userHandle = b64.encode(r.userHandle);
  }
  return {
    id: c.id, rawId: b64.encode(c.rawId), type: c.type, response,
    clientExtensionResults: c.getClientExtensionResults(), authenticatorAttachment: c.authenticatorAttachment,
  };
}

async function register(name) {
  const o = await post("register-options", { name });
  o.challenge = b64.decode(o.challenge);
  o.user.id = b64.decode(o.user.id);
  for (const c of o.excludeCredentials || []) c.id = b64.decode(c.id);
  const credential = await navigator.credentials.create({ publicKey: o });
  await post("register", { credential: answerJSON(credential) });
}

async function signIn() {
  const o = await post("signin-options", {});
  o.challenge = b64.decode(o.challenge);
  for (const c of o.allowCredentials || []) c.id = b64.decode(c.id);
  const credential = await navigator.credentials.get({ publicKey: o });
  await post("signin", { credential: answerJSON(credential) });
}

function on(id, work) {
  const button = document.getElementById(id);
  if (!button) return;
  if (!window.PublicKeyCredential) {
    button.disabled = true;
    const box = document.getElementById("passkeys");
    say((box && box.dataset.noPasskeys) || "This browser has no passkeys: use a password.");
    return;
  }
  button.addEventListener("click", async () => {
    button.disabled = true;
    say("…");
    try {
      await work();
      location.assign(`/account?lang=${encodeURIComponent(lang)}`);
    } catch (e) {
      say(e.message || String(e));
      button.disabled = false;
    }
  });
}

on("passkey-signup", () => register(document.getElementById("passkey-name").value));
on("passkey-signin", signIn);
on("passkey-add", () => register(null));
