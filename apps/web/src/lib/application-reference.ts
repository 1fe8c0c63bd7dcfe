/**
 * An application's reference (`A-17`): the contract's rule, which the API's emails and the back
 * office use too, under the names the adopters' pages know.
 */
export {
  formatOrderReference as formatReference,
  parseOrderReference as parseReference,
} from '@pets/contract/rules';
