/** The JSON body of every error response (spec 2.6). */
export interface ErrorBody {
  error: string;
  details?: string;
}
