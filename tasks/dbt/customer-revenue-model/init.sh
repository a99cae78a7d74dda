#!/bin/bash
# Unpack the shop_analytics dbt project, load its seeds and build its staging views, so the
# task starts from a working project that only lacks the customer_revenue model.
set -euo pipefail
mkdir -p ~/.dbt ~/projects
cd ~/projects
unzip -oq ~/shop_analytics.zip
rm -f ~/shop_analytics.zip
mv shop_analytics/profiles.yml ~/.dbt/profiles.yml
cd shop_analytics
dbt seed --quiet
dbt run --quiet
