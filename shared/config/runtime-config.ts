import * as z from 'zod';

/**
 * What the web app needs to know about the environment it runs in. Served as `/runtime-config.json`:
 * by the local stack from `.local/stack.json`, by the web stack from the deployed resources. The
 * front-end code is identical in both homes; only this document differs.
 */
export const RuntimeConfig = z.object({
  env: z.string(),
  region: z.string(),
  /** Base URL per service area, e.g. `{ system: 'http://localhost:3000/system' }`. */
  apiBaseUrls: z.record(z.string(), z.string().url()),
  auth: z.object({
    userPoolId: z.string(),
    userPoolClientId: z.string(),
    /** Only set locally: the Cognito-compatible endpoint in front of cognito-local. */
    userPoolEndpoint: z.string().url().optional(),
    /** cognito-local has no SRP, so the local home signs in with USER_PASSWORD_AUTH. */
    authFlowType: z.enum(['USER_SRP_AUTH', 'USER_PASSWORD_AUTH']),
    /**
     * Cloud only: the identity pool whose credentials sign the live view's IoT Core connection (locally the
     * broker takes the access token instead).
     */
    identityPoolId: z.string().optional(),
    /**
     * The hosted sign-in (issue 21), where the environment has one: the origin of its `/oauth2/…` endpoints
     * (`https://{user-pool domain}` in the cloud, the local identity layer's `http://localhost:9229` here), the
     * scopes, the callback and sign-out URLs the client allows (the web app uses the one on the page's own origin)
     * and the identity providers for "Sign in with …": Cognito's name and the label people read. Absent: password
     * sign-in only.
     */
    oauth: z
      .object({
        origin: z.string().url(),
        scopes: z.array(z.string()),
        redirectSignIn: z.array(z.string().url()).min(1),
        redirectSignOut: z.array(z.string().url()).min(1),
        providers: z.array(z.object({ name: z.string().min(1), label: z.string().min(1) })),
      })
      .optional(),
    /**
     * The environment's remembered-browser rule (docs/decisions/039-remembered-devices.md): whether a remembered
     * browser signs in without the authenticator code. Absent: as if not.
     */
    rememberedDevices: z.object({ skipSecondFactor: z.boolean() }).optional(),
  }),
  /**
   * Spec §9: the attributes of the session and token cookies. Same-site strict and secure in the cloud;
   * locally lax and not secure (the local web app is plain http).
   */
  cookies: z.object({
    secure: z.boolean(),
    sameSite: z.enum(['strict', 'lax']),
  }),
  /**
   * MQTT over WebSocket for live data: the local broker's `ws://…`, or in the cloud IoT Core's
   * `wss://{account endpoint}/mqtt` (the web app signs it with the identity pool's credentials).
   */
  realtimeUrl: z.string().optional(),
  /**
   * Spec §9's analytics id, as real-user monitoring (docs/decisions/040-real-user-monitoring.md): the CloudWatch RUM
   * app monitor the web app reports page views, errors and Core Web Vitals to, only after the visitor switched
   * measurements on (the privacy page). In the cloud the dataplane signs with the identity pool's guest or signed-in
   * credentials; locally the stack's collector takes them unsigned. Absent: nothing is measured.
   */
  analytics: z
    .object({
      /** The app monitor's id (a UUID): the analytics id. */
      appMonitorId: z.string().min(1),
      /** Where PutRumEvents goes: `https://dataplane.rum.{region}.amazonaws.com`, or the local collector. */
      endpoint: z.string().url(),
      /** The share of sessions recorded (0–1), the environment's setting. */
      sessionSampleRate: z.number().min(0).max(1),
      /**
       * Cloud: the identity pool whose guest identity signs the events (Cognito's enhanced flow, so no STS call); a
       * signed-in person's own identity-pool credentials sign them instead. Absent: sent unsigned (the local collector).
       */
      identityPoolId: z.string().optional(),
    })
    .optional(),
  /**
   * How a device reaches the platform over MQTT with its credential (decision 031, 043), for the device page to show:
   * the broker's URL (`mqtts://{account endpoint}:443`, TLS with the ALPN protocol `mqtt`, or the local
   * `mqtt://localhost:1883`), what follows the device id in the MQTT user name (the authorizer's name in the cloud,
   * nothing locally) and the readings rule whose Basic Ingest topic takes the readings.
   */
  deviceIngress: z
    .object({
      mqttUrl: z.string().min(1),
      /** The TLS ALPN protocol the device must offer on port 443; absent locally (plain MQTT). */
      mqttAlpn: z.string().optional(),
      mqttUserNameSuffix: z.string(),
      readingsRule: z.string().min(1),
    })
    .optional(),
  /** Local only: where sent e-mail can be read. */
  mailViewerUrl: z.string().url().optional(),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfig>;
