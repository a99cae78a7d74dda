# Wrong on purpose: an inner join drops the customers without orders
# %% based-on: solution.py
# %% insert-after 4: make the saved asset's left join an inner join (sed on the file)
import subprocess
subprocess.run(["sed", "-i", "s/left join orders/inner join orders/",
                "/home/user/projects/shop_warehouse/shop_warehouse/definitions.py"], check=True)
