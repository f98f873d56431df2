// The CommonJS view of the same declarations.
import sesameClient = require('sesame-client');

const sesame: sesameClient.Sesame = new sesameClient.Sesame();
sesame.idToken().then((token: sesameClient.IdToken) => console.log(token.uid));
const error: sesameClient.SesameError = new sesameClient.EmailAlreadyInUse('x');
console.log(error.reason);
