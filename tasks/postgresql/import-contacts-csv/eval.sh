#!/bin/bash
# Exports every row of crm.contacts to /tmp/spider2v-eval/contacts.csv ("|"-separated, NULL
# written as <NULL> so that it differs from an empty string) and prints "succeed" if it could.
OUT=/tmp/spider2v-eval
rm -rf "$OUT" && mkdir -p "$OUT"
psql -X -A -t -F'|' -v ON_ERROR_STOP=1 -d crm -c "
  SELECT contact_id, full_name, email, coalesce(company, '<NULL>'), coalesce(city, '<NULL>'),
         coalesce(CAST(signup_date AS text), '<NULL>')
  FROM contacts ORDER BY contact_id" > "$OUT/contacts.csv" 2>&1 || { echo "failed: cannot read crm.contacts"; exit 0; }
echo succeed
