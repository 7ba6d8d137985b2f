// The smallest round trip, to check the server answers and the credentials work.
RETURN 1 AS ok
