# Wrong on purpose: loads the CSV without IGNORE 1 LINES, so the header row becomes a product
# %% based-on: solution.py
# %% replace 5: load the CSV, reading quoted fields whole and skipping the header row
pyautogui.typewrite(
    "LOAD DATA LOCAL INFILE '/home/user/Desktop/price_list.csv' INTO TABLE products "
    "FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"';\n",
    interval=0.01,
)
time.sleep(1)
