// The one test-database helper lives in @pets/db; the API's tests import it from here.
export * from '@pets/db/testing';
