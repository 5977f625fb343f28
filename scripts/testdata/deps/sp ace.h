#pragma once
int space_h;
