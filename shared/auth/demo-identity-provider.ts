/**
 * The demo organization's own OpenID provider (issue 21): "Sign in with Northside Air Network". `name` is the
 * identity provider's name in Cognito's terms (the authorize request's `identity_provider`, the prefix of a federated
 * user's name); `label` is what a person reads on the button. One definition for the local stack and the web
 * app (docs/decisions/038-local-demo-identity-provider.md).
 */
export const DEMO_IDENTITY_PROVIDER = {
  name: 'NorthsideAir',
  label: 'Northside Air Network',
} as const;

/** Where an identity provider sends the browser back to the identity layer, on Cognito's domain as locally. */
export const IDP_RESPONSE_PATH = '/oauth2/idpresponse';
