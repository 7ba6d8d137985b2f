// The model-written query run under $tag (its transaction metadata), ended: its request ended.
SHOW TRANSACTIONS YIELD transactionId AS id, metaData
WHERE metaData.generated_query = $tag
TERMINATE TRANSACTIONS id
YIELD message
RETURN id, message
