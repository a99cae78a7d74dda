# Wrong on purpose: forgets to restrict the export to March 2024, so every employee's hours of all months are summed
# %% based-on: solution.py
# %% replace 3: hours per employee (of every month), and wait for the CSV file
from terminal import run
run("SELECT e.name, e.hourly_rate, sum(t.hours) AS hours FROM employees e "
    "JOIN timesheet t ON t.employee_id = e.id GROUP BY e.id ORDER BY e.name;",
    creates="/home/user/Desktop/march_hours.csv")
