/** Spec 2.3. */
export interface TokenExchangeResponse {
  jwt_token: string;
  token_type: 'Bearer';
  expires_in: number;
}
