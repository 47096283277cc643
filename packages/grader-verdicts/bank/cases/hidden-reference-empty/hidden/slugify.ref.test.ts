import { slugify } from './slugify.js';

// A reference that checks nothing: an empty oracle.
void slugify;
